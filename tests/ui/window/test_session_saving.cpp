// Sessions kept safe: an interrupted save leaves the old file, autosave and recovery (after a
// crash, per running window, of a killed run), the unsaved-changes decision.

#include "test_session.hpp"

#include <sys/resource.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLockFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <csignal>
#include <exception>

#include "compute/computation.hpp"
#include "document/document.hpp"
#include "mhaviz/core/base/errors.hpp"
#include "session/autosave.hpp"
#include "session/session_file.hpp"
#include "session/session_files.hpp"
#include "session/unsaved_changes.hpp"
#include "window/main_window.hpp"

using namespace mhaviz::ui;
using namespace mhaviz::ui::testing::session;

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

  // Through the window: the error is shown and the session stays modified.
  TestWindow w;
  QVERIFY(w.idle());
  w.document()->changeConfig(sessionConfig(), QStringLiteral("test"));
  QVERIFY(!w.session()->saveTo(dir.filePath(QStringLiteral("no/such/dir/x.mhaviz.json"))));
  QCOMPARE(w.errors.size(), 1);
  QVERIFY(w.session()->isModified());
}

void TestSession::autosaveIsWrittenAndOfferedForRecovery() {
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

void TestSession::crashedRunIsOfferedWhenTheWindowStarts() {
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

void TestSession::eachRunningWindowHasItsOwnAutosave() {
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

void TestSession::autosaveOfAKilledRunIsClaimedAndOffered() {
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

void TestSession::unsavedChangesDecision() {
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
