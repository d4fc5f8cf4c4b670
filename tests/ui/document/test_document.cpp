// The document layer alone (ui/document, linked without the computation or any widget): what
// changeConfig pushes onto the undo history and announces, how consecutive edits merge, the
// user's values that a smaller size cuts and a larger one brings back, the view's bounds, the
// order of Change::origin and Change::config, what was computed held and announced as its writer
// says, and ConfigEdits' controls following the document.

#include <QSignalSpy>
#include <QTest>
#include <QUndoStack>
#include <memory>

#include "announced.hpp"
#include "document/config_edits.hpp"
#include "document/document.hpp"
#include "mhaviz/core/base/tensor_map.hpp"

using namespace mhaviz::ui;
using mhaviz::ui::testing::Announced;

namespace {

mhaviz::Config withHeads(mhaviz::Config c, std::int64_t heads) {
  c.num_heads = heads;
  return c;
}

}  // namespace

class TestDocument : public QObject {
  Q_OBJECT

 private slots:
  void aChangeIsOneUndoableCommandAnnouncedOnce() {
    Document doc;
    const Announced changed(&doc, Document::Change::config);
    const mhaviz::Config start = doc.config();
    doc.changeConfig(withHeads(start, 4), QStringLiteral("Set num_heads to 4"));
    QCOMPARE(changed.count(), 1);
    QCOMPARE(doc.config().num_heads, 4);
    QCOMPARE(changed.configs.last().num_heads, 4);
    QCOMPARE(doc.undoStack()->count(), 1);
    QCOMPARE(doc.undoStack()->undoText(), QStringLiteral("Set num_heads to 4"));
    doc.undoStack()->undo();
    QCOMPARE(changed.count(), 2);
    QVERIFY(doc.config() == start);
    doc.undoStack()->redo();
    QCOMPARE(changed.count(), 3);
    QCOMPARE(doc.config().num_heads, 4);
    // The configuration it already has: no command, no signal.
    doc.changeConfig(doc.config(), QStringLiteral("Set num_heads to 4"));
    QCOMPARE(changed.count(), 3);
    QCOMPARE(doc.undoStack()->count(), 1);
  }

  void editsWithOneMergeIdAreOneStepAndARoundTripIsNone() {
    Document doc;
    const mhaviz::Config start = doc.config();
    constexpr int kSpin = 7;
    doc.changeConfig(withHeads(start, 4), QStringLiteral("Set num_heads to 4"), kSpin);
    doc.changeConfig(withHeads(start, 8), QStringLiteral("Set num_heads to 8"), kSpin);
    QCOMPARE(doc.undoStack()->count(), 1);
    QCOMPARE(doc.undoStack()->undoText(), QStringLiteral("Set num_heads to 8"));
    doc.undoStack()->undo();
    QVERIFY(doc.config() == start);  // both edits, undone as one
    doc.undoStack()->redo();
    QCOMPARE(doc.config().num_heads, 8);
    // Another id is another step; back where a run started leaves nothing of it to undo.
    doc.changeConfig(withHeads(start, 1), QStringLiteral("Set num_heads to 1"), kSpin + 1);
    doc.changeConfig(withHeads(start, 8), QStringLiteral("Set num_heads to 8"), kSpin + 1);
    QCOMPARE(doc.undoStack()->count(), 1);
    QCOMPARE(doc.config().num_heads, 8);
    // Without an id, never merged.
    doc.changeConfig(withHeads(start, 4), QStringLiteral("a"));
    doc.changeConfig(withHeads(start, 8), QStringLiteral("b"));
    QCOMPARE(doc.undoStack()->count(), 3);
  }

  void labelsASmallerSizeCutComeBackWhenItGrows() {
    Document doc;
    mhaviz::Config c = doc.config();
    c.tgt_len = 4;
    c.query_labels = {"the", "cat", "sat", "down"};
    doc.changeConfig(c, QStringLiteral("Set labels"));
    QSignalSpy fitted(&doc, &Document::sizesFitted);
    c = doc.config();
    c.tgt_len = 2;
    doc.changeConfig(c, QStringLiteral("Set tgt_len to 2"));
    QCOMPARE(doc.config().query_labels, (std::vector<std::string>{"the", "cat"}));
    QCOMPARE(fitted.count(), 1);  // what the size cut, said
    QVERIFY(!fitted.last().at(0).toString().isEmpty());
    QVERIFY(doc.lastFitNotes().isEmpty());  // only while the change is applied
    c = doc.config();
    c.tgt_len = 4;
    doc.changeConfig(c, QStringLiteral("Set tgt_len to 4"));
    QCOMPARE(doc.config().query_labels, (std::vector<std::string>{"the", "cat", "sat", "down"}));
    // Undo brings its own values: what it restores is remembered from then on.
    doc.undoStack()->undo();
    QCOMPARE(doc.config().query_labels, (std::vector<std::string>{"the", "cat"}));
  }

  void theViewIsFittedAndAnnouncedOnlyWhenItChanges() {
    Document doc;
    const Announced viewChanged(&doc, Document::Change::view);
    ViewOptions v = doc.view();
    v.batch = 3;
    doc.setView(v);
    QCOMPARE(viewChanged.count(), 1);
    QCOMPARE(doc.view().batch, 3);
    doc.setView(v);  // the same again: nothing to announce
    QCOMPARE(viewChanged.count(), 1);
    // What can be shown (the computation's bounds: two batch elements, four heads) has the last
    // word.
    ViewBounds bounds;
    bounds.sized = true;
    bounds.batches = 2;
    bounds.heads = 4;
    bounds.queryLabels = {QStringLiteral("a"), QStringLiteral("b")};
    doc.setViewBounds(bounds);
    QCOMPARE(viewChanged.count(), 1);  // not announced: the result that brings them is
    QCOMPARE(doc.view().batch, 1);
    QCOMPARE(doc.view().queryLabels, bounds.queryLabels);
    v.batch = 5;
    v.soloHead = 3;
    doc.setView(v);
    QCOMPARE(viewChanged.count(), 2);
    QCOMPARE(doc.view().batch, 1);
    QCOMPARE(doc.view().soloHead, 3);
    QCOMPARE(viewChanged.views.last().batch, 1);
    // Fewer heads leave head 3 out; the view as asked brings it back when they take it in.
    bounds.heads = 2;
    doc.setViewBounds(bounds);
    QCOMPARE(doc.view().soloHead, -1);
    bounds.heads = 4;
    doc.setViewBounds(bounds);
    QCOMPARE(doc.view().soloHead, 3);
    QCOMPARE(viewChanged.count(), 2);
  }

  void aStageTheResultDoesNotHoldIsShownByTheNearestItHas() {
    Document doc;
    ViewOptions v = doc.view();
    v.stage = Stage::weights_before_dropout;
    doc.setView(v);
    ViewBounds bounds;  // nothing known yet: kept as asked
    doc.setViewBounds(bounds);
    QCOMPARE(doc.view().stage, Stage::weights_before_dropout);
    bounds.beforeDropout = false;  // a result without dropout
    doc.setViewBounds(bounds);
    QCOMPARE(doc.view().stage, Stage::weights);
    v.stage = Stage::capped_scores;
    doc.setView(v);
    bounds.cappedScores = false;
    doc.setViewBounds(bounds);
    QCOMPARE(doc.view().stage, Stage::raw_scores);
    bounds.cappedScores = true;
    bounds.weightsOnly = true;  // a reduced result
    doc.setViewBounds(bounds);
    QCOMPARE(doc.view().stage, Stage::weights);
    bounds.weightsOnly = false;
    doc.setViewBounds(bounds);
    QCOMPARE(doc.view().stage, Stage::capped_scores);
  }

  void newTensorsEndTheOriginThenApplyTheConfiguration() {
    Document doc;
    QList<QByteArray> order;
    SessionOrigin seen;
    connect(&doc, &Document::changed, this, [&](Document::Changes what) {
      if (what & Document::Change::origin) {
        order << "origin";
        seen = doc.origin();
      }
      if (what & Document::Change::config) order << "config";
    });
    SessionOrigin layer;
    layer.model = QStringLiteral("enc.json");
    layer.layer = 2;
    auto tensors = std::make_shared<mhaviz::io::TensorMap>();
    doc.setTensors(tensors, layer);
    QCOMPARE(order, (QList<QByteArray>{"origin", "config"}));
    QVERIFY(seen.isModelLayer());
    QCOMPARE(doc.tensors().get(), tensors.get());
    QCOMPARE(doc.undoStack()->count(), 0);  // not an edit
    // Tensors from anywhere else are no model's layer.
    doc.setTensors(nullptr);
    QVERIFY(!doc.origin().isModelLayer());
    QVERIFY(doc.tensors() == nullptr);
    // setOrigin announces even an unchanged origin; reapply announces the configuration.
    order.clear();
    doc.setOrigin(doc.origin());
    doc.reapply();
    QCOMPARE(order, (QList<QByteArray>{"origin", "config"}));
  }

  void whatWasComputedIsHeldAndAnnouncedAsItsWriterSays() {
    Document doc;
    using Change = Document::Change;
    const Announced all(&doc, Change::config | Change::view | Change::busy | Change::reduced);
    Computed c;
    c.busy = true;
    doc.setComputed(c, Change::busy);
    c.reduced = QStringLiteral("reduced: block mean of 2x2 cells");
    c.region.blockRows = 2;
    doc.setComputed(c, {});  // held, told with the announcement that follows
    QCOMPARE(all.count(), 1);
    QCOMPARE(doc.computed().region.blockRows, 2);
    QCOMPARE(doc.computed().reduced, c.reduced);
    doc.setComputed(c, Change::reduced);
    QCOMPARE(all.changes, (QList<Document::Changes>{Change::busy, Change::reduced}));
    QCOMPARE(all.busy, (QList<bool>{true, true}));
    QCOMPARE(all.descriptions, (QList<QString>{QString(), c.reduced}));
    // The settings' own changes leave what was computed of them to the computation.
    doc.changeConfig(withHeads(doc.config(), 4), QStringLiteral("Set num_heads to 4"));
    QCOMPARE(all.changes.last(), Document::Changes(Change::config));
    QVERIFY(doc.computed().busy);
    QCOMPARE(doc.computed().bytes(), std::size_t{0});
  }

  // Compare mode's A is the document's: pinned, computed and dropped with one announcement
  // each, independent of the settings (B) and of what was computed of them.
  void thePinnedAIsHeldBesideTheSettings() {
    Document doc;
    using Change = Document::Change;
    const Announced all(&doc, Change::config | Change::pinned);
    QVERIFY(!doc.pinned().has_value());
    const mhaviz::Config a = withHeads(doc.config(), 4);
    doc.setPinned(Pinned{a, nullptr, {}, {}, {}});
    QVERIFY(doc.pinned().has_value());
    QVERIFY(doc.pinned()->config == a);
    QVERIFY(doc.pinned()->result == nullptr);
    QVERIFY(!(doc.config() == a));          // B is untouched
    QCOMPARE(doc.undoStack()->count(), 0);  // not an edit of the settings
    doc.changeConfig(withHeads(doc.config(), 1), QStringLiteral("Set num_heads to 1"));
    QVERIFY(doc.pinned()->config == a);  // nor do the settings' changes touch A
    doc.setPinned(std::nullopt);
    QVERIFY(!doc.pinned().has_value());
    QCOMPARE(all.changes,
             (QList<Document::Changes>{Change::pinned, Change::config, Change::pinned}));
  }

  // The map of a model selected and its batch element: announced when another is selected, not
  // when the same one is selected again; none again when the model closes. Neither an edit nor
  // the view.
  void theSelectedMapIsHeldBesideTheSettings() {
    Document doc;
    using Change = Document::Change;
    const Announced all(&doc, Change::config | Change::view | Change::selection);
    QCOMPARE(doc.selection(), Selection{});
    doc.setSelection({1, 3});
    QCOMPARE(doc.selection(), (Selection{1, 3}));
    doc.setSelection({1, 3});
    doc.setSelection({1, -1});  // the whole layer
    QCOMPARE(doc.selection(), (Selection{1, -1}));
    doc.setSelection({1, -1, 2});  // its batch element 2
    QCOMPARE(doc.selection().batch, 2);
    doc.setSelection({});
    QCOMPARE(doc.selection().layer, -1);
    QCOMPARE(doc.undoStack()->count(), 0);
    QCOMPARE(all.changes, QList<Document::Changes>(4, Change::selection));
  }

  // A follower that changes the document while a change is announced (as the computation
  // does when the settings change) has its change announced after that one reached every
  // follower: one that connected later sees the settings before the busy they caused, as one
  // that connected earlier does; the state is set at once.
  void aChangeMadeDuringAnAnnouncementComesAfterIt() {
    Document doc;
    using Change = Document::Change;
    const Announced first(&doc, Change::config | Change::busy);
    bool busyAtOnce = false;
    QObject::connect(&doc, &Document::changed, &doc, [&doc, &busyAtOnce](Document::Changes what) {
      if (!(what & Change::config)) return;
      Computed c = doc.computed();
      c.busy = true;
      doc.setComputed(c, Change::busy);
      busyAtOnce = doc.computed().busy;
    });
    const Announced later(&doc, Change::config | Change::busy);
    doc.changeConfig(withHeads(doc.config(), 4), QStringLiteral("Set num_heads to 4"));
    QVERIFY(busyAtOnce);
    const QList<Document::Changes> order{Change::config, Change::busy};
    QCOMPARE(first.changes, order);
    QCOMPARE(later.changes, order);
    QCOMPARE(later.busy, (QList<bool>{true, true}));  // read from the document as it stands
  }

  void controlsFollowTheDocumentAndTheirOwnMovesAreNoEdits() {
    Document doc;
    ConfigEdits edits(&doc);
    QObject panel;
    std::int64_t shownHeads = -1;
    int shown = 0;
    // The panel's "control": showing the configuration moves it, which fires its change signal
    // as a user's edit would; ConfigEdits ignores the edit while it shows.
    edits.follow(&panel, [&](const mhaviz::Config& c) {
      ++shown;
      shownHeads = c.num_heads;
      QVERIFY(edits.showing());
      edits.edit(QStringLiteral("echo"), [](mhaviz::Config& cfg) { cfg.num_heads = 1; });
    });
    QCOMPARE(shown, 1);  // shown at once
    QCOMPARE(shownHeads, doc.config().num_heads);
    QVERIFY(!edits.showing());
    edits.edit(QStringLiteral("Set num_heads to 4"), [](mhaviz::Config& c) { c.num_heads = 4; });
    QCOMPARE(doc.undoStack()->count(), 1);  // the echo was not pushed
    QCOMPARE(shown, 2);
    QCOMPARE(shownHeads, 4);
    doc.undoStack()->undo();  // undo moves the controls too
    QCOMPARE(shown, 3);
    QCOMPARE(shownHeads, 2);
    QCOMPARE(doc.undoStack()->count(), 1);
  }
};

QTEST_MAIN(TestDocument)
#include "test_document.moc"
