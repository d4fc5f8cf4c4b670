#pragma once
// Sessions (QtTest, offscreen): file round trip, damaged and newer files, atomic saves,
// autosave and recovery, the unsaved-changes decision, recent files, tensors in sessions.
//
// The class is declared here; its tests are defined in test_session_opening.cpp (with
// QTEST_MAIN) and test_session_saving.cpp.

#include <QByteArray>
#include <QFile>
#include <QObject>
#include <QString>

#include "mhaviz/core/spec/config.hpp"
#include "prompted_window.hpp"

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

using TestWindow = testing::PromptedWindow;

}  // namespace mhaviz::ui::testing::session

class TestSession : public QObject {
  Q_OBJECT

 private slots:
  // In the order they ran before they were split into files (each file is named for the
  // tests it holds): QtTest runs slots as declared, and one order is what has been run (in
  // another, the model view's hover went unseen after the weights-only test's double click).
  void initTestCase();
  void fileRoundTripRestoresConfigViewAndPicture();
  void damagedFileGivesItsPosition();
  void newerVersionIsRefused();
  void plainConfigOpensUntitled();
  void anExampleOpensAsAFileDoes();
  void openFiltersOnEveryJsonFirst();
  void newSaysWhichDefaultsItUses();
  void interruptedSaveLeavesTheOldFile();
  void autosaveIsWrittenAndOfferedForRecovery();
  void crashedRunIsOfferedWhenTheWindowStarts();
  void eachRunningWindowHasItsOwnAutosave();
  void autosaveOfAKilledRunIsClaimedAndOffered();
  void unsavedChangesDecision();
  void recentFilesList();
  void tensorsTravelWithTheRequestAndTheSession();
};
