// The session file: every field through the file, damaged, newer and plain files, File > Open's
// filters, interrupted saves, the recent files list.

#include <sys/resource.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>
#include <csignal>

#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/io/npz.hpp"
#include "session/recent_files.hpp"
#include "session/session_file.hpp"
#include "session/session_files.hpp"
#include "test_session.hpp"

using namespace mhaviz::ui;
using namespace mhaviz::ui::testing::session;

namespace {

QString parseError(const QByteArray& text, const QString& path) {
  try {
    (void)parseSession(text, path);
  } catch (const mhaviz::InvalidInput& e) {
    return QString::fromUtf8(e.what());
  }
  return {};
}

std::shared_ptr<const mhaviz::io::TensorMap> queryTensors(float first) {
  std::vector<float> q(12);
  for (std::size_t i = 0; i < q.size(); ++i) q[i] = first + static_cast<float>(i) * 0.25F;
  return std::make_shared<const mhaviz::io::TensorMap>(
      mhaviz::io::TensorMap{{"query", mhaviz::Tensor::from<float>({3, 4}, q)}});
}

float firstQueryValue(const Session& s) {
  return s.tensors ? s.tensors->at("query").data<float>()[0] : -1.0F;
}

}  // namespace

void TestSession::initTestCase() {
  QStandardPaths::setTestModeEnabled(true);
  QCoreApplication::setOrganizationName(QStringLiteral("mhaviz-tests"));
  QCoreApplication::setApplicationName(QStringLiteral("mhaviz-session-tests"));
  storeRecentFiles({});
}

void TestSession::everyFieldSurvivesTheFile() {
  QTemporaryDir dir;
  Session s;
  s.config = sessionConfig();
  s.view.stage = Stage::raw_scores;
  s.view.batch = 1;
  s.view.colormap = Colormap::magma;
  s.view.perHeadScale = true;
  s.view.autoRange = true;
  s.view.soloHead = 2;
  s.view.showAverage = false;
  s.view.reduce = Reduce::max;
  s.workspace = QStringLiteral("a-workspace-of-a-later-mhaviz");  // kept as it is
  // The tensors from a file beside the session: referenced relative to it.
  s.tensors = queryTensors(-1.0F);
  s.tensorsFile = dir.filePath(QStringLiteral("inputs/query.npz"));
  QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("inputs")));
  mhaviz::io::write_npz(s.tensorsFile.toStdString(), *s.tensors);
  mhaviz::Config a = sessionConfig();
  a.num_heads = 2;
  s.compareA = CompareA{a, s.tensors};  // A uses B's tensors: written as "same"

  const QString path = dir.filePath(QStringLiteral("all.mhaviz.json"));
  writeSession(s, path);
  const QByteArray text = readAll(path);
  QVERIFY2(text.contains("\"file\": \"inputs/query.npz\""), text.constData());
  QVERIFY2(text.contains("\"a_tensors\": \"same\""), text.constData());
  QVERIFY(text.contains("12345678901234567"));

  const Session back = readSession(path);
  QVERIFY(back.config == s.config);
  QVERIFY(back.view == s.view);
  QCOMPARE(back.workspace, s.workspace);
  QCOMPARE(back.tensorsFile, QFileInfo(s.tensorsFile).absoluteFilePath());
  QVERIFY(!back.embedTensors);
  QCOMPARE(firstQueryValue(back), -1.0F);
  QVERIFY(back.compareA.has_value());
  QVERIFY(back.compareA->config == a);
  QVERIFY(back.compareA->tensors == back.tensors);  // "same": the very tensors of B
  QVERIFY(!back.fromConfigFile);

  // Tensors from outside the session's folder are referenced by their absolute path; A's own
  // tensors are embedded; embedding B's writes no file name.
  QTemporaryDir elsewhere;
  s.tensorsFile = elsewhere.filePath(QStringLiteral("q.npz"));
  mhaviz::io::write_npz(s.tensorsFile.toStdString(), *s.tensors);
  s.compareA->tensors = queryTensors(5.0F);
  writeSession(s, path);
  QVERIFY(readAll(path).contains(("\"file\": \"" + s.tensorsFile + "\"").toUtf8()));
  const Session apart = readSession(path);
  QVERIFY(apart.compareA->tensors != apart.tensors);
  QCOMPARE(apart.compareA->tensors->at("query").data<float>()[0], 5.0F);
  s.embedTensors = true;
  writeSession(s, path);
  QVERIFY(!readAll(path).contains("\"file\""));
  QFile::remove(s.tensorsFile);  // embedded: the file is no longer needed
  const Session embedded = readSession(path);
  QVERIFY(embedded.embedTensors);
  QVERIFY(embedded.tensorsFile.isEmpty());
  QCOMPARE(firstQueryValue(embedded), -1.0F);

  // A session without tensors, A or workspace has none after the file either.
  writeSession(Session{}, path);
  const Session plain = readSession(path);
  QVERIFY(plain.tensors == nullptr);
  QVERIFY(!plain.compareA.has_value());
  QVERIFY(plain.workspace.isEmpty());
  QVERIFY(plain.config == mhaviz::Config{});
}

void TestSession::damagedFileGivesItsPosition() {
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

  // Opened as the window opens it, over edited work the user agreed to discard: the message is
  // shown, and the work is still there.
  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("broken.mhaviz.json"));
  QFile f(path);
  QVERIFY(f.open(QIODevice::WriteOnly));
  f.write("{\"format\": \"mhaviz-session\", \"version\": ");
  f.close();
  PromptedSession w;
  w.document.changeConfig(sessionConfig(), QStringLiteral("test"));
  w.answer = UnsavedAnswer::discard;
  QVERIFY(!w.files.open(path));
  QCOMPARE(w.unsavedAsked, 1);
  QCOMPARE(w.errors.size(), 1);
  QVERIFY(w.errors.front().contains(QStringLiteral("damaged")));
  QVERIFY(w.document.config() == sessionConfig());
  QVERIFY(w.files.isModified());
}

void TestSession::newerVersionIsRefused() {
  const QString message = parseError(R"({"format": "mhaviz-session", "version": 3, "config": {}})",
                                     QStringLiteral("/tmp/session.mhaviz.json"));
  QCOMPARE(message, QStringLiteral("session.mhaviz.json was written by a newer mhaviz (format "
                                   "version 3; this mhaviz reads up to 2). Update mhaviz to "
                                   "open it."));
  const QString other =
      parseError(R"({"format": "something-else", "version": 1})", QStringLiteral("o.json"));
  QVERIFY2(other.contains(QStringLiteral("not an mhaviz session")), qPrintable(other));
}

void TestSession::plainConfigOpensUntitled() {
  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("c.json"));
  QFile f(path);
  QVERIFY(f.open(QIODevice::WriteOnly));
  f.write(R"({"embed_dim": 8, "num_heads": 2})");
  f.close();
  QVERIFY(readSession(path).fromConfigFile);
  PromptedSession w;
  QVERIFY(w.files.open(path));
  QCOMPARE(w.document.config().embed_dim, 8);
  QVERIFY(w.files.filePath().isEmpty());  // Save must not overwrite the config
}

// Issue 40 defect 10: File > Open offered *.mhaviz.json first, hiding configurations and
// model indexes (plain .json files). Plain attention weights (.npz, .safetensors) open too.
void TestSession::openFiltersOnEveryJsonFirst() {
  const QString first = SessionFiles::openFilter().split(QStringLiteral(";;")).front();
  const QString patterns = first.section(QLatin1Char('('), 1).section(QLatin1Char(')'), 0, 0);
  for (const char* file : {"model.json", "config.json", "lecture.mhaviz.json", "attentions.npz",
                           "attentions.safetensors"}) {
    bool matched = false;
    for (const QString& pattern : patterns.split(QLatin1Char(' '))) {
      matched =
          matched ||
          QRegularExpression::fromWildcard(pattern).match(QString::fromLatin1(file)).hasMatch();
    }
    QVERIFY2(matched, qPrintable(QString::fromLatin1(file) + QStringLiteral(" in ") + first));
  }
}

void TestSession::interruptedSaveLeavesTheOldFile() {
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

  // Saved as the window saves: the error is shown and the session stays modified.
  PromptedSession w;
  QVERIFY(w.idle());
  w.document.changeConfig(sessionConfig(), QStringLiteral("test"));
  QVERIFY(!w.files.saveTo(dir.filePath(QStringLiteral("no/such/dir/x.mhaviz.json"))));
  QCOMPARE(w.errors.size(), 1);
  QVERIFY(w.files.isModified());
}

void TestSession::recentFilesList() {
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
  PromptedSession w;
  QVERIFY(w.files.saveTo(dir.filePath(QStringLiteral("a.mhaviz.json"))));
  QVERIFY(w.files.saveTo(dir.filePath(QStringLiteral("b.mhaviz.json"))));
  QCOMPARE(loadRecentFiles(), (QStringList{dir.filePath(QStringLiteral("b.mhaviz.json")),
                                           dir.filePath(QStringLiteral("a.mhaviz.json"))}));
  QCOMPARE(w.files.recentFiles(), loadRecentFiles());
}

QTEST_MAIN(TestSession)
