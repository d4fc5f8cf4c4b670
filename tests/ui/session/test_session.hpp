#pragma once
// The session layer's tests (QtTest, offscreen): the file format, SessionFiles over a bare
// QMainWindow with a Document and its Computation (no MainWindow), autosave and recovery.
//
// The class is declared here; its tests are defined in test_session_file.cpp (with QTEST_MAIN),
// test_session_files.cpp and test_session_autosave.cpp.

#include <QByteArray>
#include <QFile>
#include <QMainWindow>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <QtTest>

#include "compute/computation.hpp"
#include "document/document.hpp"
#include "mhaviz/core/spec/config.hpp"
#include "session/session_files.hpp"
#include "session/unsaved_changes.hpp"

namespace mhaviz::ui::testing::session {

inline constexpr int kTimeout = 30000;

/// The configuration the tests save and read back: not the defaults, a seed beyond double
/// precision.
inline mhaviz::Config sessionConfig() {
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

inline QByteArray readAll(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/// What the window assembles for its sessions, and no more: a bare main window, the document,
/// its computation and their SessionFiles, whose prompts answer from the fields below and
/// record error messages. It computes the current configuration at once, as the window does. The
/// autosave file is `autosavePath` (default: one in a folder of
/// its own, removed with it).
struct PromptedSession {
  QTemporaryDir autosaveFolder;
  QMainWindow window;
  Document document;
  Computation computation{&document};
  SessionFiles files;
  UnsavedAnswer answer = UnsavedAnswer::cancel;  // to "save your changes?"
  bool recover = true;                           // to "recover the autosave?"
  int unsavedAsked = 0;
  int recoverAsked = 0;
  QStringList errors;  // messages passed to the error prompt

  explicit PromptedSession(const QString& autosavePath = {})
      : files(&window, &document,
              autosavePath.isEmpty() ? autosaveFolder.filePath(QStringLiteral("autosave.json"))
                                     : autosavePath) {
    SessionFiles::Prompts p;
    p.unsaved = [this](const QString&) {
      ++unsavedAsked;
      return answer;
    };
    p.recover = [this](const QDateTime&) {
      ++recoverAsked;
      return recover;
    };
    p.error = [this](const QString&, const QString& message) { errors << message; };
    files.setPrompts(p);
    computation.recompute();  // the first picture, as the window computes it when it starts
  }
  /// Waits until no computation runs and a result for the current configuration is there.
  bool idle(int timeoutMs = kTimeout) {
    return QTest::qWaitFor(
        [this] {
          return !document.computed().busy && !document.computed().measuring &&
                 document.computed().result &&
                 document.computed().result->config == document.config();
        },
        timeoutMs);
  }
};

}  // namespace mhaviz::ui::testing::session

class TestSession : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  // The file (test_session_file.cpp)
  void everyFieldSurvivesTheFile();
  void damagedFileGivesItsPosition();
  void newerVersionIsRefused();
  void plainConfigOpensUntitled();
  void openFiltersOnEveryJsonFirst();
  void interruptedSaveLeavesTheOldFile();
  void recentFilesList();
  // The session as the window's document (test_session_files.cpp)
  void fileRoundTripRestoresConfigViewAndPicture();
  void tensorsTravelWithTheRequestAndTheSession();
  void unsavedChangesDecision();
  void aDroppedFileIsOpened();
  void newSaysWhichDefaultsItUses();
  void compareModesAIsSavedFromAndOpenedIntoTheDocument();
  void theWorkspaceIsSavedFromAndOpenedIntoTheDocument();
  // Autosave and recovery (test_session_autosave.cpp)
  void autosaveIsWrittenAndOfferedForRecovery();
  void eachRunningWindowHasItsOwnAutosave();
  void autosaveOfAKilledRunIsClaimedAndOffered();
};
