// The session as the window's document (SessionFiles over a bare main window): a file round trip
// down to the picture's values, tensors in sessions, the unsaved-changes decision, files dropped
// on the window, what File > New says.

#include <QDropEvent>
#include <QFileInfo>
#include <QMimeData>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QUrl>
#include <QtTest>
#include <cmath>

#include "mhaviz/core/io/npz.hpp"
#include "session/session_file.hpp"
#include "stages/stage_data.hpp"
#include "test_session.hpp"

using namespace mhaviz::ui;
using namespace mhaviz::ui::testing::session;

namespace {

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

std::vector<double> firstMap(const mhaviz::ForwardResult& result) {
  return extractStage(result, ViewOptions{}).maps[0].values;
}

/// Drags `paths` over the window (DragEnter; true when it is accepted) and, when `drop`, drops
/// them there.
bool dragOnto(QWidget& window, const QStringList& paths, bool drop) {
  QMimeData mime;
  QList<QUrl> urls;
  for (const QString& p : paths) urls << QUrl::fromLocalFile(p);
  mime.setUrls(urls);
  QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  QCoreApplication::sendEvent(&window, &enter);
  if (drop) {
    QDropEvent dropped(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&window, &dropped);
  }
  return enter.isAccepted();
}

}  // namespace

void TestSession::fileRoundTripRestoresConfigViewAndPicture() {
  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("session.mhaviz.json"));
  StageData before;
  {
    PromptedSession w;
    QVERIFY(w.idle());
    w.document.changeConfig(sessionConfig(), QStringLiteral("test"));
    QVERIFY(w.idle());
    w.document.setView(sessionView());
    QVERIFY(w.files.isModified());
    QVERIFY(w.window.isWindowModified());
    QVERIFY(w.window.windowTitle().contains(QStringLiteral("[*]")));
    QVERIFY(w.files.saveTo(path));
    QVERIFY(!w.files.isModified());
    QVERIFY(!w.window.isWindowModified());
    QCOMPARE(w.window.windowTitle(), QStringLiteral("session.mhaviz.json[*] — mhaviz"));
    before = extractStage(*w.document.computed().result, w.document.view());
  }
  // The file itself: the documented format.
  QVERIFY(readAll(path).contains("\"format\": \"mhaviz-session\""));
  QVERIFY(readAll(path).contains("12345678901234567"));

  PromptedSession w;
  QVERIFY(w.idle());
  QVERIFY(w.files.open(path));
  QVERIFY(w.idle());
  QTRY_VERIFY(w.document.view().soloHead == 2);
  QVERIFY(w.document.config() == sessionConfig());
  ViewOptions expected = sessionView();
  expected.queryLabels = w.document.view().queryLabels;
  expected.keyLabels = w.document.view().keyLabels;
  QVERIFY(w.document.view() == expected);
  QVERIFY(!w.files.isModified());
  QCOMPARE(w.files.filePath(), QFileInfo(path).absoluteFilePath());
  const StageData after = extractStage(*w.document.computed().result, w.document.view());
  QCOMPARE(after.maps.size(), before.maps.size());
  QCOMPARE(after.maps.size(), std::size_t{1});  // solo head 2
  for (std::size_t i = 0; i < after.maps.size(); ++i) {
    QCOMPARE(after.maps[i].title, before.maps[i].title);
    QVERIFY(sameValues(after.maps[i].values, before.maps[i].values));
  }
  QCOMPARE(after.lo, before.lo);
  QCOMPARE(after.hi, before.hi);
}

void TestSession::tensorsTravelWithTheRequestAndTheSession() {
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

  PromptedSession w;
  QVERIFY(w.idle());
  w.document.changeConfig(c, QStringLiteral("test"));
  QVERIFY(w.idle());
  const auto generated = w.document.computed().result;
  QVERIFY(w.files.loadTensors(good));
  QVERIFY(w.files.isModified());
  QTRY_VERIFY_WITH_TIMEOUT(w.document.computed().result != generated && !w.document.computed().busy,
                           kTimeout);
  const auto withQuery = w.document.computed().result;
  QVERIFY(!sameValues(firstMap(*withQuery), firstMap(*generated)));

  // Referenced and embedded tensors come back with the session.
  const QString referenced = dir.filePath(QStringLiteral("ref.mhaviz.json"));
  QVERIFY(w.files.saveTo(referenced));
  QVERIFY(readAll(referenced).contains("\"file\": \"query.npz\""));
  Session embedded = w.files.snapshot();
  embedded.embedTensors = true;
  const QString embeddedPath = dir.filePath(QStringLiteral("emb.mhaviz.json"));
  writeSession(embedded, embeddedPath);
  QVERIFY(readAll(embeddedPath).contains("npz_base64"));
  for (const QString& path : {referenced, embeddedPath}) {
    PromptedSession other;
    QVERIFY(other.idle());
    QVERIFY(other.files.open(path));
    QVERIFY(other.idle());
    QVERIFY(other.document.tensors() != nullptr);
    QVERIFY(sameValues(firstMap(*other.document.computed().result), firstMap(*withQuery)));
  }

  // Wrong shapes: an inline error, like other errors; the picture stays.
  QVERIFY(w.files.loadTensors(bad));
  QTRY_VERIFY_WITH_TIMEOUT(!w.document.computed().error.isEmpty(), kTimeout);
  QVERIFY2(w.document.computed().error.contains(QStringLiteral("query")),
           qPrintable(w.document.computed().error));
  QVERIFY(w.document.computed().result == withQuery);
  // A missing referenced file is named.
  QFile::remove(good);
  PromptedSession missing;
  QVERIFY(!missing.files.open(referenced));
  QVERIFY(missing.errors.front().contains(QStringLiteral("query.npz")));
}

void TestSession::unsavedChangesDecision() {
  QVERIFY(decideUnsaved(false, UnsavedAnswer::cancel) == UnsavedAction::proceed);
  QVERIFY(decideUnsaved(true, UnsavedAnswer::save) == UnsavedAction::saveThenProceed);
  QVERIFY(decideUnsaved(true, UnsavedAnswer::discard) == UnsavedAction::proceed);
  QVERIFY(decideUnsaved(true, UnsavedAnswer::cancel) == UnsavedAction::abort);

  QTemporaryDir dir;
  const QString other = dir.filePath(QStringLiteral("other.mhaviz.json"));
  writeSession(Session{}, other);
  PromptedSession w;
  QVERIFY(w.idle());
  // Unmodified: no question.
  QVERIFY(w.files.open(other));
  QCOMPARE(w.unsavedAsked, 0);
  w.document.changeConfig(sessionConfig(), QStringLiteral("test"));
  // Cancel keeps the changes, on open and on close.
  w.answer = UnsavedAnswer::cancel;
  QVERIFY(!w.files.open(other));
  QVERIFY(w.document.config() == sessionConfig());
  w.window.show();
  QVERIFY(!w.window.close());
  QVERIFY(w.window.isVisible());
  QCOMPARE(w.unsavedAsked, 2);
  // Save writes the current file first, then proceeds.
  w.answer = UnsavedAnswer::save;
  const QString current = dir.filePath(QStringLiteral("current.mhaviz.json"));
  QVERIFY(w.files.saveTo(current));
  w.document.changeConfig(mhaviz::Config{}, QStringLiteral("test"));
  QVERIFY(w.files.open(other));
  QVERIFY(readSession(current).config == mhaviz::Config{});
  // Discard drops them.
  w.document.changeConfig(sessionConfig(), QStringLiteral("test"));
  w.answer = UnsavedAnswer::discard;
  QVERIFY(w.window.close());
}

void TestSession::aDroppedFileIsOpened() {
  QTemporaryDir dir;
  Session saved;
  saved.config = sessionConfig();
  const QString session = dir.filePath(QStringLiteral("dropped.mhaviz.json"));
  writeSession(saved, session);
  mhaviz::Config small;
  small.embed_dim = 4;
  small.num_heads = 2;
  small.tgt_len = 3;
  small.src_len = 3;
  small.batch_size = std::nullopt;
  const QString tensors = dir.filePath(QStringLiteral("query.npz"));
  mhaviz::io::write_npz(
      tensors.toStdString(),
      {{"query", mhaviz::Tensor::from<float>({3, 4}, std::vector<float>(12, 0.5F))}});
  const QString text = dir.filePath(QStringLiteral("notes.txt"));
  {
    QFile f(text);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("notes");
  }

  PromptedSession w;
  QVERIFY(w.idle());
  // Only one session, configuration or tensors file is taken.
  QVERIFY(!dragOnto(w.window, {text}, false));
  QVERIFY(!dragOnto(w.window, {session, tensors}, false));
  QVERIFY(dragOnto(w.window, {tensors}, false));

  // A session dropped on modified work asks first; cancelled, the work stays.
  w.document.changeConfig(small, QStringLiteral("test"));
  QVERIFY(dragOnto(w.window, {session}, true));
  QCOMPARE(w.unsavedAsked, 1);
  QVERIFY(w.document.config() == small);
  w.answer = UnsavedAnswer::discard;
  QVERIFY(dragOnto(w.window, {session}, true));
  QVERIFY(w.document.config() == sessionConfig());
  QCOMPARE(w.files.filePath(), QFileInfo(session).absoluteFilePath());

  // Tensors dropped are computed with, as Load tensors does.
  w.document.changeConfig(small, QStringLiteral("test"));
  QVERIFY(w.idle());
  QVERIFY(dragOnto(w.window, {tensors}, true));
  QVERIFY(w.document.tensors() != nullptr);
  QCOMPARE(w.document.tensors()->at("query").data<float>()[5], 0.5F);
  QVERIFY(w.idle());
  QVERIFY(w.errors.isEmpty());
}

// Issue 28 item 13: File > New gave the defaults without a word. New says which defaults it
// uses, in the status bar.
void TestSession::newSaysWhichDefaultsItUses() {
  PromptedSession w;
  w.document.changeConfig(sessionConfig(), QStringLiteral("test"));
  QVERIFY(w.idle());
  w.answer = UnsavedAnswer::discard;
  w.files.newSession();
  QVERIFY(w.idle());
  const mhaviz::Config& c = w.document.config();
  QVERIFY(c == mhaviz::Config{});
  const QString message = w.window.statusBar()->currentMessage();
  QCOMPARE(message, SessionFiles::newSessionText());
  for (const QString& fact :
       {QStringLiteral("L = %1").arg(c.tgt_len), QStringLiteral("S = %1").arg(c.src_len),
        QStringLiteral("N = %1").arg(c.batch()), QStringLiteral("E = %1").arg(c.embed_dim),
        QStringLiteral("H = %1").arg(c.num_heads)}) {
    QVERIFY2(message.contains(fact), qPrintable(fact + QStringLiteral(" in ") + message));
  }
  QVERIFY(message.contains(QStringLiteral("defaults")));
  // Issue 40 defect 8: the message stayed up ("H = 2") after H became 8.
  mhaviz::Config eight = w.document.config();
  eight.embed_dim = 32;
  eight.num_heads = 8;
  w.document.changeConfig(eight, QStringLiteral("8 heads"));
  QVERIFY(w.idle());
  QVERIFY2(!w.window.statusBar()->currentMessage().contains(QStringLiteral("H = ")),
           qPrintable(w.window.statusBar()->currentMessage()));
}

// Compare mode's A is part of the session through the document: saved from Document::pinned
// (its settings and tensors, not its result), opened into it without a result (the compare
// panel computes it), and the session is modified exactly while A differs from the one it saved
// or opened.
void TestSession::compareModesAIsSavedFromAndOpenedIntoTheDocument() {
  QTemporaryDir dir;
  const QString withA = dir.filePath(QStringLiteral("with-a.mhaviz.json"));
  const QString withoutA = dir.filePath(QStringLiteral("without-a.mhaviz.json"));
  const mhaviz::Config aConfig = sessionConfig();
  {
    PromptedSession w;
    QVERIFY(w.idle());
    QVERIFY(w.files.saveTo(withoutA));
    w.document.changeConfig(aConfig, QStringLiteral("A"));
    QVERIFY(w.idle());
    QVERIFY(w.files.saveTo(withA));  // saved at A's settings, nothing pinned: unmodified
    const Computed& computed = w.document.computed();
    w.document.setPinned(Pinned{aConfig, nullptr, computed.result, computed.measures(), {}});
    QVERIFY(w.files.isModified());  // pinning A changed the session
    QVERIFY(w.window.isWindowModified());
    QVERIFY(w.files.saveTo(withA));
    QVERIFY(!w.files.isModified());
    w.document.setPinned(std::nullopt);
    QVERIFY(w.files.isModified());  // leaving compare mode too
    w.document.setPinned(Pinned{aConfig, nullptr, {}, {}, {}});
    QVERIFY(!w.files.isModified());  // the A it saved again
  }
  QVERIFY(readAll(withA).contains("\"compare\""));
  QVERIFY(!readAll(withoutA).contains("\"compare\""));

  PromptedSession w;
  QVERIFY(w.idle());
  QVERIFY(!w.document.pinned().has_value());
  QVERIFY(w.files.open(withA));
  QVERIFY(w.document.pinned().has_value());
  QVERIFY(w.document.pinned()->config == aConfig);
  QVERIFY(w.document.pinned()->tensors == nullptr);
  QVERIFY(w.document.pinned()->result == nullptr);  // to be computed by the compare panel
  QVERIFY(!w.files.isModified());                   // opening A is no edit
  w.answer = UnsavedAnswer::discard;
  QVERIFY(w.files.open(withoutA));
  QVERIFY(!w.document.pinned().has_value());  // a session without A leaves compare mode
  QVERIFY(!w.files.isModified());
}

// The window's workspace is the document's: a session saves the one it names and opens into it
// the one the file names; a version 1 file names none (the workspace stays), unless it has A
// pinned (Compare). Showing another workspace is no change to the session.
void TestSession::theWorkspaceIsSavedFromAndOpenedIntoTheDocument() {
  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("tokens.mhaviz.json"));
  PromptedSession w;
  QVERIFY(w.idle());
  QVERIFY(w.document.workspace().isEmpty());  // no window has shown one
  w.document.setWorkspace(QStringLiteral("tokens"));
  QVERIFY(!w.files.isModified());
  QVERIFY(w.files.saveTo(path));
  QVERIFY(readAll(path).contains("\"workspace\": \"tokens\""));
  w.document.setWorkspace(QStringLiteral("teach"));
  QVERIFY(!w.files.isModified());
  QVERIFY(w.files.open(path));
  QCOMPARE(w.document.workspace(), QStringLiteral("tokens"));

  Session old;  // as a version 1 file is read: no workspace
  w.files.applySession(old, QString(), true);
  QCOMPARE(w.document.workspace(), QStringLiteral("tokens"));
  old.compareA = CompareA{sessionConfig(), nullptr};
  w.files.applySession(old, QString(), true);
  QCOMPARE(w.document.workspace(), QStringLiteral("compare"));
}
