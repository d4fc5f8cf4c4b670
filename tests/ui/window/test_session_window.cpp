// Sessions in the assembled window: what only the window shows. The session layer's own tests
// (files, SessionFiles, autosave) are in tests/ui/session.

#include <QMenu>
#include <QStatusBar>
#include <QtTest>

#include "compute/computation.hpp"
#include "document/document.hpp"
#include "prompted_window.hpp"
#include "session/autosave.hpp"
#include "session/session_file.hpp"
#include "session/session_files.hpp"
#include "teach/teaching_tools.hpp"
#include "window/main_window.hpp"

using namespace mhaviz::ui;

namespace {

mhaviz::Config crashedConfig() {
  mhaviz::Config c;
  c.embed_dim = 16;
  c.num_heads = 4;
  c.tgt_len = 5;
  c.src_len = 7;
  c.add_bias_kv = true;
  return c;
}

}  // namespace

class TestSessionWindow : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { testing::isolateSettings("mhaviz-session-window-tests"); }

  // Issue 40 defect 10: an untouched example marked the session modified ("Untitled*", so New
  // asked to save), and an example opened over edited work did not ask. An example opens as a
  // file does.
  void anExampleOpensAsAFileDoes() {
    testing::PromptedWindow w;
    QVERIFY(w.idle());
    QMenu* examples = w.window.teaching()->examplesMenu();
    const auto open = [&](const char* resource) {
      for (QAction* a : examples->actions()) {
        if (a->data().toString().contains(QLatin1String(resource))) a->trigger();
      }
    };
    open("bias_kv_and_zero_attn");
    QVERIFY(w.idle());
    QVERIFY(w.document()->config().add_bias_kv);
    QVERIFY(!w.session()->isModified());
    QVERIFY2(!w.window.windowTitle().contains(QStringLiteral("Untitled")),
             qPrintable(w.window.windowTitle()));
    w.session()->newSession();  // nothing to save: no question
    QCOMPARE(w.unsavedAsked, 0);
    QVERIFY(w.idle());
    mhaviz::Config edited = w.document()->config();
    edited.num_heads = 4;
    w.document()->changeConfig(edited, QStringLiteral("edit"));
    QVERIFY(w.idle());
    QVERIFY(w.session()->isModified());
    w.answer = UnsavedAnswer::cancel;
    open("causal_self_attention");
    QCOMPARE(w.unsavedAsked, 1);
    QCOMPARE(w.document()->config().num_heads, 4);  // cancelled: the edited work stays
    w.answer = UnsavedAnswer::discard;
    open("causal_self_attention");
    QCOMPARE(w.unsavedAsked, 2);
    QVERIFY(w.idle());
    QVERIFY(!w.session()->isModified());
  }

  // The window's own document, as `mhaviz` starts it: the autosave a killed run left at this
  // process's autosave path must survive the window's first computation and be offered.
  void crashedRunIsOfferedWhenTheWindowStarts() {
    Session crashed;
    crashed.config = crashedConfig();
    writeSession(crashed, Autosave::defaultPath());
    testing::PromptedWindow w;
    QVERIFY(w.idle());
    QVERIFY(QFile::exists(Autosave::defaultPath()));
    w.session()->start(StartupFiles{});
    QCOMPARE(w.recoverAsked, 1);
    QVERIFY(w.document()->config() == crashedConfig());
    QVERIFY(w.session()->isModified());
  }

  // File > New after the first picture (4 heads) gives the defaults and says so.
  void newAfterTheFirstPictureSaysWhichDefaultsItUses() {
    testing::PromptedWindow w;
    w.window.showFirstPicture();
    QVERIFY(w.idle());
    QVERIFY(w.document()->config().num_heads != mhaviz::Config{}.num_heads);
    w.session()->newSession();
    QVERIFY(w.idle());
    QVERIFY(w.document()->config() == mhaviz::Config{});
    QCOMPARE(w.window.statusBar()->currentMessage(), SessionFiles::newSessionText());
  }
};

QTEST_MAIN(TestSessionWindow)
#include "test_session_window.moc"
