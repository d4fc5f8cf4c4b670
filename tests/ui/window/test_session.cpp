// Sessions (QtTest, offscreen): file round trip, damaged and newer files, atomic saves,
// autosave and recovery, the unsaved-changes decision, recent files, tensors in sessions.

#include <sys/resource.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLockFile>
#include <QMainWindow>
#include <QMenu>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>
#include <cmath>
#include <csignal>
#include <exception>

#include "compute/computation.hpp"
#include "document/document.hpp"
#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/io/npz.hpp"
#include "prompted_window.hpp"
#include "session/autosave.hpp"
#include "session/recent_files.hpp"
#include "session/session_file.hpp"
#include "session/session_files.hpp"
#include "session/unsaved_changes.hpp"
#include "stages/stage_data.hpp"
#include "teach/teaching_tools.hpp"
#include "window/main_window.hpp"

using namespace mhaviz::ui;

namespace {

constexpr int kTimeout = 30000;

mhaviz::Config sessionConfig() {
  mhaviz::Config c;
  c.embed_dim = 16;
  c.num_heads = 4;
  c.tgt_len = 5;
  c.src_len = 7;
  c.batch_size = 2;
  c.add_bias_kv = true;
  c.seed = 12345678901234567ULL;  // beyond double precision: must survive the file exactly
  return c;
}

ViewOptions sessionView() {
  ViewOptions v;
  v.stage = Stage::raw_scores;
  v.batch = 1;
  v.colormap = Colormap::magma;
  v.perHeadScale = true;
  v.autoRange = true;
  v.soloHead = 2;
  v.showAverage = false;
  v.reduce = Reduce::max;
  return v;
}

bool sameValues(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!(a[i] == b[i] || (std::isnan(a[i]) && std::isnan(b[i])))) return false;
  }
  return true;
}

QString parseError(const QByteArray& text, const QString& path) {
  try {
    (void)parseSession(text, path);
  } catch (const mhaviz::InvalidInput& e) {
    return QString::fromUtf8(e.what());
  }
  return {};
}

QByteArray readAll(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

using TestWindow = testing::PromptedWindow;

}  // namespace

class TestSession : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { testing::isolateSettings("mhaviz-session-tests"); }

  void fileRoundTripRestoresConfigViewAndPicture() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("session.mhaviz.json"));
    StageData before;
    {
      TestWindow w;
      QVERIFY(w.idle());
      w.document()->changeConfig(sessionConfig(), QStringLiteral("test"));
      QVERIFY(w.idle());
      w.document()->setView(sessionView());
      QVERIFY(w.session()->isModified());
      QVERIFY(w.window.isWindowModified());
      QVERIFY(w.window.windowTitle().contains(QStringLiteral("[*]")));
      QVERIFY(w.session()->saveTo(path));
      QVERIFY(!w.session()->isModified());
      QVERIFY(!w.window.isWindowModified());
      QCOMPARE(w.window.windowTitle(), QStringLiteral("session.mhaviz.json[*] — mhaviz"));
      before = extractStage(*w.computation()->result(), w.document()->view());
    }
    // The file itself: the documented format.
    const Session s = readSession(path);
    QVERIFY(s.config == sessionConfig());
    QVERIFY(s.view.stage == Stage::raw_scores);
    QCOMPARE(s.view.soloHead, 2);
    QVERIFY(readAll(path).contains("\"format\": \"mhaviz-session\""));
    QVERIFY(readAll(path).contains("12345678901234567"));

    TestWindow w;
    QVERIFY(w.idle());
    QVERIFY(w.session()->open(path));
    QVERIFY(w.idle());
    QTRY_VERIFY(w.document()->view().soloHead == 2);
    QVERIFY(w.document()->config() == sessionConfig());
    ViewOptions expected = sessionView();
    expected.queryLabels = w.document()->view().queryLabels;
    expected.keyLabels = w.document()->view().keyLabels;
    QVERIFY(w.document()->view() == expected);
    QVERIFY(!w.session()->isModified());
    QCOMPARE(w.session()->filePath(), QFileInfo(path).absoluteFilePath());
    const StageData after = extractStage(*w.computation()->result(), w.document()->view());
    QCOMPARE(after.maps.size(), before.maps.size());
    QCOMPARE(after.maps.size(), std::size_t{1});  // solo head 2
    for (std::size_t i = 0; i < after.maps.size(); ++i) {
      QCOMPARE(after.maps[i].title, before.maps[i].title);
      QVERIFY(sameValues(after.maps[i].values, before.maps[i].values));
    }
    QCOMPARE(after.lo, before.lo);
    QCOMPARE(after.hi, before.hi);
  }

  void damagedFileGivesItsPosition() {
    const QString message =
        parseError("{\n  \"format\": \"mhaviz-session\",\n  \"version\": 1,\n  \"config\": {\n",
                   QStringLiteral("/x/broken.mhaviz.json"));
    QVERIFY2(message.startsWith(QStringLiteral("broken.mhaviz.json is damaged")),
             qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("line 5")), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("column")), qPrintable(message));

    const QString badView = parseError(
        R"({"format": "mhaviz-session", "version": 1, "config": {}, "view": {"stage": "nope"}})",
        QStringLiteral("v.mhaviz.json"));
    QVERIFY2(badView.contains(QStringLiteral("view.stage must be one of")), qPrintable(badView));

    const QString badConfig =
        parseError(R"({"format": "mhaviz-session", "version": 1, "config": {"num_head": 2}})",
                   QStringLiteral("c.mhaviz.json"));
    QVERIFY2(badConfig.contains(QStringLiteral("num_head")), qPrintable(badConfig));

    // Through the window: the message is shown, the session kept.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("broken.mhaviz.json"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{\"format\": \"mhaviz-session\", \"version\": ");
    f.close();
    TestWindow w;
    QVERIFY(!w.session()->open(path));
    QCOMPARE(w.errors.size(), 1);
    QVERIFY(w.errors.front().contains(QStringLiteral("damaged")));
  }

  void newerVersionIsRefused() {
    const QString message =
        parseError(R"({"format": "mhaviz-session", "version": 3, "config": {}})",
                   QStringLiteral("/tmp/session.mhaviz.json"));
    QCOMPARE(message, QStringLiteral("session.mhaviz.json was written by a newer mhaviz (format "
                                     "version 3; this mhaviz reads up to 2). Update mhaviz to "
                                     "open it."));
    const QString other =
        parseError(R"({"format": "something-else", "version": 1})", QStringLiteral("o.json"));
    QVERIFY2(other.contains(QStringLiteral("not an mhaviz session")), qPrintable(other));
  }

  void plainConfigOpensUntitled() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("c.json"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"embed_dim": 8, "num_heads": 2})");
    f.close();
    TestWindow w;
    QVERIFY(w.session()->open(path));
    QCOMPARE(w.document()->config().embed_dim, 8);
    QVERIFY(w.session()->filePath().isEmpty());  // Save must not overwrite the config
  }

  // Issue 40 defect 10: an untouched example marked the session modified ("Untitled*", so New
  // asked to save), and an example opened over edited work did not ask. An example opens as a
  // file does.
  void anExampleOpensAsAFileDoes() {
    TestWindow w;
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

  // Issue 40 defect 10: File > Open offered *.mhaviz.json first, hiding configurations and
  // model indexes (plain .json files).
  void openFiltersOnEveryJsonFirst() {
    const QString first = SessionFiles::openFilter().split(QStringLiteral(";;")).front();
    const QString patterns = first.section(QLatin1Char('('), 1).section(QLatin1Char(')'), 0, 0);
    for (const char* file : {"model.json", "config.json", "lecture.mhaviz.json"}) {
      bool matched = false;
      for (const QString& pattern : patterns.split(QLatin1Char(' '))) {
        matched =
            matched ||
            QRegularExpression::fromWildcard(pattern).match(QString::fromLatin1(file)).hasMatch();
      }
      QVERIFY2(matched, qPrintable(QString::fromLatin1(file) + QStringLiteral(" in ") + first));
    }
  }

  // Issue 28 item 13: the first picture has 4 heads, File > New gave 2 without a word. New says
  // which defaults it uses, in the status bar and in the action's status tip.
  void newSaysWhichDefaultsItUses() {
    TestWindow w;
    w.window.showFirstPicture();
    QVERIFY(w.idle());
    QVERIFY(w.document()->config().num_heads != mhaviz::Config{}.num_heads);
    w.session()->newSession();
    QVERIFY(w.idle());
    const mhaviz::Config& c = w.document()->config();
    QCOMPARE(c.num_heads, mhaviz::Config{}.num_heads);
    const QString message = w.window.statusBar()->currentMessage();
    for (const QString& fact :
         {QStringLiteral("L = %1").arg(c.tgt_len), QStringLiteral("S = %1").arg(c.src_len),
          QStringLiteral("N = %1").arg(c.batch()), QStringLiteral("E = %1").arg(c.embed_dim),
          QStringLiteral("H = %1").arg(c.num_heads)}) {
      QVERIFY2(message.contains(fact), qPrintable(fact + QStringLiteral(" in ") + message));
    }
    QVERIFY(message.contains(QStringLiteral("defaults")));
    // Issue 40 defect 8: the message stayed up ("H = 2") after H became 8.
    mhaviz::Config eight = w.document()->config();
    eight.embed_dim = 32;
    eight.num_heads = 8;
    w.document()->changeConfig(eight, QStringLiteral("8 heads"));
    QVERIFY(w.idle());
    QVERIFY2(!w.window.statusBar()->currentMessage().contains(QStringLiteral("H = ")),
             qPrintable(w.window.statusBar()->currentMessage()));
  }

  void interruptedSaveLeavesTheOldFile() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("keep.mhaviz.json"));
    Session first;
    first.config = sessionConfig();
    writeSession(first, path);
    const QByteArray old = readAll(path);
    QVERIFY(old.size() > 200);

    Session second;
    second.config.num_heads = 8;
    second.config.embed_dim = 64;
    // Make every write past 64 bytes fail (EFBIG) in the middle of the save.
    rlimit saved{};
    QCOMPARE(getrlimit(RLIMIT_FSIZE, &saved), 0);
    const auto oldHandler = std::signal(SIGXFSZ, SIG_IGN);
    rlimit small = saved;
    small.rlim_cur = 64;
    QCOMPARE(setrlimit(RLIMIT_FSIZE, &small), 0);
    QString error;
    try {
      writeSession(second, path);
    } catch (const mhaviz::InvalidInput& e) {
      error = QString::fromUtf8(e.what());
    }
    setrlimit(RLIMIT_FSIZE, &saved);
    std::signal(SIGXFSZ, oldHandler);
    QVERIFY2(error.startsWith(QStringLiteral("Cannot save ")),
             qPrintable(QStringLiteral("%1 / %2 bytes").arg(error).arg(readAll(path).size())));
    QCOMPARE(readAll(path), old);
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"keep.mhaviz.json"});

    // A folder that cannot be written, by root either: its "folder" is a regular file (ENOTDIR;
    // a read-only folder would not stop root). The file in the way is left as it was.
    const QString plain = dir.filePath(QStringLiteral("plain"));
    {
      QFile f(plain);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write("not a folder");
    }
    QString notDir;
    try {
      writeSession(second, plain + QStringLiteral("/s.mhaviz.json"));
    } catch (const mhaviz::InvalidInput& e) {
      notDir = QString::fromUtf8(e.what());
    }
    QVERIFY2(notDir.startsWith(QStringLiteral("Cannot save ") + plain +
                               QStringLiteral("/s.mhaviz.json: ")) &&
                 notDir.endsWith(QStringLiteral(". Choose another folder or file name.")),
             qPrintable(notDir));
    QCOMPARE(readAll(plain), QByteArray("not a folder"));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), (QStringList{"keep.mhaviz.json", "plain"}));

    // Through the window: the error is shown and the session stays modified.
    TestWindow w;
    QVERIFY(w.idle());
    w.document()->changeConfig(sessionConfig(), QStringLiteral("test"));
    QVERIFY(!w.session()->saveTo(dir.filePath(QStringLiteral("no/such/dir/x.mhaviz.json"))));
    QCOMPARE(w.errors.size(), 1);
    QVERIFY(w.session()->isModified());
  }

  void autosaveIsWrittenAndOfferedForRecovery() {
    QTemporaryDir dir;
    const QString autosavePath = dir.filePath(QStringLiteral("autosave.mhaviz.json"));
    QByteArray crashed;
    {
      TestWindow w;
      // The window's own document autosaves to the app-data location; use a second document
      // on the same window with an explicit path to keep the test's files together.
      SessionFiles doc(&w.window, w.document(), w.computation(), autosavePath);
      doc.autosave()->setDelay(50);
      SessionFiles::Prompts none;
      doc.setPrompts(none);
      doc.start(StartupFiles{});
      QVERIFY(w.idle());
      QVERIFY(!QFile::exists(autosavePath));
      w.document()->changeConfig(sessionConfig(), QStringLiteral("test"));
      QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(autosavePath), kTimeout);
      const auto offer = Autosave::pendingRecovery(autosavePath);
      QVERIFY(offer.has_value());
      QVERIFY(offer->session.config == sessionConfig());
      crashed = readAll(autosavePath);
      // Saving makes the session clean: the autosave goes away.
      QVERIFY(doc.saveTo(dir.filePath(QStringLiteral("saved.mhaviz.json"))));
      QVERIFY(!QFile::exists(autosavePath));
    }
    // A clean exit leaves nothing to recover.
    QVERIFY(!QFile::exists(autosavePath));

    // What a killed process leaves behind: the autosave file.
    QFile f(autosavePath);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(crashed);
    f.close();
    TestWindow w;
    SessionFiles doc(&w.window, w.document(), w.computation(), autosavePath);
    int asked = 0;
    SessionFiles::Prompts p;
    p.recover = [&asked](const QDateTime& written) {
      ++asked;
      return written.isValid();
    };
    doc.setPrompts(p);
    doc.start(StartupFiles{});
    QCOMPARE(asked, 1);
    QVERIFY(w.document()->config() == sessionConfig());
    QVERIFY(doc.isModified());  // recovered work is unsaved

    // Declining discards the autosave.
    TestWindow w2;
    SessionFiles doc2(&w2.window, w2.document(), w2.computation(), autosavePath);
    QFile again(autosavePath);
    QVERIFY(again.open(QIODevice::WriteOnly));
    again.write(crashed);
    again.close();
    SessionFiles::Prompts decline;
    decline.recover = [](const QDateTime&) { return false; };
    doc2.setPrompts(decline);
    doc2.start(StartupFiles{});
    QVERIFY(!(w2.document()->config() == sessionConfig()));
    QVERIFY(!QFile::exists(autosavePath));
  }

  void crashedRunIsOfferedWhenTheWindowStarts() {
    // The window's own document, as `mhaviz` starts it: the autosave a killed run left at this
    // process's autosave path must survive the window's first computation and be offered.
    Session crashed;
    crashed.config = sessionConfig();
    writeSession(crashed, Autosave::defaultPath());
    TestWindow w;
    QVERIFY(w.idle());
    QVERIFY(QFile::exists(Autosave::defaultPath()));
    w.session()->start(StartupFiles{});
    QCOMPARE(w.recoverAsked, 1);
    QVERIFY(w.document()->config() == sessionConfig());
    QVERIFY(w.session()->isModified());
  }

  void eachRunningWindowHasItsOwnAutosave() {
    QTemporaryDir dir;
    // Another running mhaviz holds slot 0: its lock (taken here, by a live process) and its work.
    QLockFile other(dir.filePath(QStringLiteral("autosave-0.lock")));
    QVERIFY(other.tryLock(0));
    const QString otherFile = dir.filePath(QStringLiteral("autosave-0.mhaviz.json"));
    Session otherWork;
    otherWork.config = sessionConfig();
    writeSession(otherWork, otherFile);

    const QString mine = Autosave::claimPath(dir.path());
    QCOMPARE(QFileInfo(mine).fileName(), QStringLiteral("autosave-1.mhaviz.json"));
    QCOMPARE(Autosave::claimPath(dir.path()), mine);  // kept for the rest of the process
    // Starting up neither offers nor discards the other window's autosave.
    TestWindow w;
    SessionFiles doc(&w.window, w.document(), w.computation(), mine);
    int asked = 0;
    SessionFiles::Prompts p;
    p.recover = [&asked](const QDateTime&) {
      ++asked;
      return true;
    };
    doc.setPrompts(p);
    doc.start(StartupFiles{});
    QCOMPARE(asked, 0);
    QVERIFY(Autosave::pendingRecovery(otherFile).has_value());
  }

  void autosaveOfAKilledRunIsClaimedAndOffered() {
    QTemporaryDir dir;
    // What a killed mhaviz leaves: its autosave, and its lock naming a process that is gone.
    QByteArray lockContents;
    {
      QLockFile probe(dir.filePath(QStringLiteral("probe.lock")));
      QVERIFY(probe.tryLock(0));
      lockContents = readAll(dir.filePath(QStringLiteral("probe.lock")));
    }
    QProcess gone;
    gone.start(QStringLiteral("sh"), {QStringLiteral("-c"), QStringLiteral("exit 0")});
    QVERIFY(gone.waitForStarted());
    const qint64 deadPid = gone.processId();
    QVERIFY(gone.waitForFinished());
    lockContents = QByteArray::number(deadPid) + lockContents.mid(lockContents.indexOf('\n'));
    QFile lock(dir.filePath(QStringLiteral("autosave-0.lock")));
    QVERIFY(lock.open(QIODevice::WriteOnly));
    lock.write(lockContents);
    lock.close();
    Session crashed;
    crashed.config = sessionConfig();
    writeSession(crashed, dir.filePath(QStringLiteral("autosave-0.mhaviz.json")));

    const QString path = Autosave::claimPath(dir.path());
    QCOMPARE(QFileInfo(path).fileName(), QStringLiteral("autosave-0.mhaviz.json"));
    const auto offer = Autosave::pendingRecovery(path);
    QVERIFY(offer.has_value());
    QVERIFY(offer->session.config == sessionConfig());
  }

  void unsavedChangesDecision() {
    QVERIFY(decideUnsaved(false, UnsavedAnswer::cancel) == UnsavedAction::proceed);
    QVERIFY(decideUnsaved(true, UnsavedAnswer::save) == UnsavedAction::saveThenProceed);
    QVERIFY(decideUnsaved(true, UnsavedAnswer::discard) == UnsavedAction::proceed);
    QVERIFY(decideUnsaved(true, UnsavedAnswer::cancel) == UnsavedAction::abort);

    QTemporaryDir dir;
    const QString other = dir.filePath(QStringLiteral("other.mhaviz.json"));
    writeSession(Session{}, other);
    TestWindow w;
    QVERIFY(w.idle());
    // Unmodified: no question.
    QVERIFY(w.session()->open(other));
    QCOMPARE(w.unsavedAsked, 0);
    w.document()->changeConfig(sessionConfig(), QStringLiteral("test"));
    // Cancel keeps the changes, on open and on close.
    w.answer = UnsavedAnswer::cancel;
    QVERIFY(!w.session()->open(other));
    QVERIFY(w.document()->config() == sessionConfig());
    w.window.show();
    QVERIFY(!w.window.close());
    QVERIFY(w.window.isVisible());
    QCOMPARE(w.unsavedAsked, 2);
    // Save writes the current file first, then proceeds.
    w.answer = UnsavedAnswer::save;
    const QString current = dir.filePath(QStringLiteral("current.mhaviz.json"));
    QVERIFY(w.session()->saveTo(current));
    w.document()->changeConfig(mhaviz::Config{}, QStringLiteral("test"));
    QVERIFY(w.session()->open(other));
    QVERIFY(readSession(current).config == mhaviz::Config{});
    // Discard drops them.
    w.document()->changeConfig(sessionConfig(), QStringLiteral("test"));
    w.answer = UnsavedAnswer::discard;
    QVERIFY(w.window.close());
  }

  void recentFilesList() {
    QTemporaryDir dir;
    QStringList list;
    for (int i = 0; i < 10; ++i) {
      list = addRecentFile(list, dir.filePath(QStringLiteral("f%1.mhaviz.json").arg(i)));
    }
    QCOMPARE(list.size(), kMaxRecentFiles);
    QCOMPARE(QFileInfo(list.front()).fileName(), QStringLiteral("f9.mhaviz.json"));
    list = addRecentFile(list, dir.filePath(QStringLiteral("f5.mhaviz.json")));
    QCOMPARE(list.size(), kMaxRecentFiles);
    QCOMPARE(QFileInfo(list.front()).fileName(), QStringLiteral("f5.mhaviz.json"));
    QCOMPARE(list.count(list.front()), 1);

    writeSession(Session{}, list.front());
    QStringList removed;
    const QStringList kept = pruneMissingFiles(list, &removed);
    QCOMPARE(kept, QStringList{list.front()});
    QCOMPARE(removed.size(), kMaxRecentFiles - 1);

    storeRecentFiles({});
    TestWindow w;
    QVERIFY(w.session()->saveTo(dir.filePath(QStringLiteral("a.mhaviz.json"))));
    QVERIFY(w.session()->saveTo(dir.filePath(QStringLiteral("b.mhaviz.json"))));
    QCOMPARE(loadRecentFiles(), (QStringList{dir.filePath(QStringLiteral("b.mhaviz.json")),
                                             dir.filePath(QStringLiteral("a.mhaviz.json"))}));
  }

  void tensorsTravelWithTheRequestAndTheSession() {
    QTemporaryDir dir;
    mhaviz::Config c;
    c.embed_dim = 4;
    c.num_heads = 2;
    c.tgt_len = 3;
    c.src_len = 3;
    c.batch_size = std::nullopt;
    // A query that differs from the generated one: the result must use it.
    std::vector<float> q(12);
    for (std::size_t i = 0; i < q.size(); ++i) q[i] = static_cast<float>(i) * 0.25F - 1.0F;
    const QString good = dir.filePath(QStringLiteral("query.npz"));
    mhaviz::io::write_npz(good.toStdString(), {{"query", mhaviz::Tensor::from<float>({3, 4}, q)}});
    const QString bad = dir.filePath(QStringLiteral("bad.npz"));
    mhaviz::io::write_npz(bad.toStdString(),
                          {{"query", mhaviz::Tensor::from<float>({5, 4}, std::vector<float>(20))}});

    TestWindow w;
    QVERIFY(w.idle());
    w.document()->changeConfig(c, QStringLiteral("test"));
    QVERIFY(w.idle());
    const auto generated = w.computation()->result();
    QVERIFY(w.session()->loadTensors(good));
    QVERIFY(w.session()->isModified());
    QTRY_VERIFY_WITH_TIMEOUT(w.computation()->result() != generated && !w.computation()->isBusy(),
                             kTimeout);
    const auto withQuery = w.computation()->result();
    QVERIFY(!sameValues(extractStage(*withQuery, ViewOptions{}).maps[0].values,
                        extractStage(*generated, ViewOptions{}).maps[0].values));

    // Referenced and embedded tensors come back with the session.
    const QString referenced = dir.filePath(QStringLiteral("ref.mhaviz.json"));
    QVERIFY(w.session()->saveTo(referenced));
    QVERIFY(readAll(referenced).contains("\"file\": \"query.npz\""));
    Session embedded = w.session()->snapshot();
    embedded.embedTensors = true;
    const QString embeddedPath = dir.filePath(QStringLiteral("emb.mhaviz.json"));
    writeSession(embedded, embeddedPath);
    QVERIFY(readAll(embeddedPath).contains("npz_base64"));
    for (const QString& path : {referenced, embeddedPath}) {
      TestWindow other;
      QVERIFY(other.idle());
      QVERIFY(other.session()->open(path));
      QVERIFY(other.idle());
      QVERIFY(other.document()->tensors() != nullptr);
      QVERIFY(sameValues(extractStage(*other.computation()->result(), ViewOptions{}).maps[0].values,
                         extractStage(*withQuery, ViewOptions{}).maps[0].values));
    }

    // Wrong shapes: an inline error, like other errors; the picture stays.
    QVERIFY(w.session()->loadTensors(bad));
    QTRY_VERIFY_WITH_TIMEOUT(!w.computation()->error().isEmpty(), kTimeout);
    QVERIFY2(w.computation()->error().contains(QStringLiteral("query")),
             qPrintable(w.computation()->error()));
    // A missing referenced file is named.
    QFile::remove(good);
    TestWindow missing;
    QVERIFY(!missing.session()->open(referenced));
    QVERIFY(missing.errors.front().contains(QStringLiteral("query.npz")));
  }
};

QTEST_MAIN(TestSession)
#include "test_session.moc"
