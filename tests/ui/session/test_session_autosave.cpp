// Autosave and recovery: written after a change and offered after a crash, one file per running
// window, the autosave of a killed run claimed and offered.

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLockFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include "session/autosave.hpp"
#include "session/session_file.hpp"
#include "test_session.hpp"

using namespace mhaviz::ui;
using namespace mhaviz::ui::testing::session;

void TestSession::autosaveIsWrittenAndOfferedForRecovery() {
  QTemporaryDir dir;
  const QString autosavePath = dir.filePath(QStringLiteral("autosave.mhaviz.json"));
  QByteArray crashed;
  {
    PromptedSession w(autosavePath);
    w.files.autosave()->setDelay(50);
    w.files.start(StartupFiles{});
    QCOMPARE(w.recoverAsked, 0);
    QVERIFY(w.idle());
    QVERIFY(!QFile::exists(autosavePath));
    w.document.changeConfig(sessionConfig(), QStringLiteral("test"));
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(autosavePath), kTimeout);
    const auto offer = Autosave::pendingRecovery(autosavePath);
    QVERIFY(offer.has_value());
    QVERIFY(offer->session.config == sessionConfig());
    crashed = readAll(autosavePath);
    // Saving makes the session clean: the autosave goes away.
    QVERIFY(w.files.saveTo(dir.filePath(QStringLiteral("saved.mhaviz.json"))));
    QVERIFY(!QFile::exists(autosavePath));
  }
  // A clean exit leaves nothing to recover.
  QVERIFY(!QFile::exists(autosavePath));

  // What a killed process leaves behind: the autosave file.
  const auto leave = [&] {
    QFile f(autosavePath);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(crashed);
  };
  leave();
  {
    PromptedSession w(autosavePath);
    w.files.start(StartupFiles{});
    QCOMPARE(w.recoverAsked, 1);
    QVERIFY(w.document.config() == sessionConfig());
    QVERIFY(w.files.isModified());  // recovered work is unsaved
  }

  // Declining discards the autosave.
  leave();
  PromptedSession declined(autosavePath);
  declined.recover = false;
  declined.files.start(StartupFiles{});
  QCOMPARE(declined.recoverAsked, 1);
  QVERIFY(!(declined.document.config() == sessionConfig()));
  QVERIFY(!QFile::exists(autosavePath));

  // A damaged autosave is not offered; the message says why.
  QFile damaged(autosavePath);
  QVERIFY(damaged.open(QIODevice::WriteOnly));
  damaged.write("{\"format\": \"mhaviz-session\", ");
  damaged.close();
  QString error;
  QVERIFY(!Autosave::pendingRecovery(autosavePath, &error).has_value());
  QVERIFY2(error.contains(QStringLiteral("damaged")), qPrintable(error));
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
  PromptedSession w(mine);
  w.files.start(StartupFiles{});
  QCOMPARE(w.recoverAsked, 0);
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
  // Started with it, the session offers it.
  PromptedSession w(path);
  w.files.start(StartupFiles{});
  QCOMPARE(w.recoverAsked, 1);
  QVERIFY(w.document.config() == sessionConfig());
}
