#pragma once
// The document: what is open in the window. Its configuration (mhaviz::Config), the user's
// tensors, how it is shown (ViewOptions), the undo history of the configuration, what the
// computation made of it (Computed: the result, its analyses, the error, busy), compare
// mode's pinned A (Pinned), the map of a model selected (Selection) and the window's
// workspace. Every editor, dock and view
// reads it from here, follows its one signal and changes it through here; the computation
// (compute/computation.hpp) follows it and writes back what it computed. GUI thread only; no
// computation happens here.

#include <QList>
#include <QObject>
#include <QString>
#include <QUndoStack>
#include <memory>
#include <optional>

#include "document/computed.hpp"
#include "document/pinned.hpp"
#include "document/selection.hpp"
#include "document/session_origin.hpp"
#include "mhaviz/core/base/tensor_map.hpp"
#include "mhaviz/core/gen/user_values.hpp"
#include "mhaviz/core/spec/config.hpp"
#include "stages/view_options.hpp"

namespace mhaviz::ui {

class Document : public QObject {
  Q_OBJECT

 public:
  /// What a change touched (Okular's DocumentObserver flags, QAbstractItemModel's roles):
  /// everything that follows the document connects once to `changed` and looks at these.
  enum class Change {
    config = 0x1,  // the configuration or the tensors: everything that follows it takes it anew
    view = 0x2,    // how it is shown (ViewOptions)
    origin = 0x4,  // where what is open came from (SessionOrigin)
    // What the computation made of it (computed()):
    result = 0x8,       // result, analyses, computeMs: a fresh result for the settings, to be
                        // drawn with view() (fitted to it already)
    measures = 0x10,    // analyses now holds the result's head measures; the result is unchanged
    error = 0x20,       // error
    outOfDate = 0x40,   // outOfDate and outOfDateReason (said again when unchanged)
    busy = 0x80,        // busy
    reduced = 0x100,    // reduced and region
    pinned = 0x200,     // compare mode's A: pinned, computed, replaced or dropped (pinned())
    selection = 0x400,  // another map of the model selected (selection())
    workspace = 0x800,  // another workspace shown (workspace())
  };
  Q_DECLARE_FLAGS(Changes, Change)

  explicit Document(QObject* parent = nullptr);
  ~Document() override;

  [[nodiscard]] const mhaviz::Config& config() const { return m_config; }
  [[nodiscard]] const ViewOptions& view() const { return m_view; }
  [[nodiscard]] QUndoStack* undoStack() { return &m_undo; }
  /// Tensors (PyTorch names) used instead of generated ones; null: none.
  [[nodiscard]] std::shared_ptr<const mhaviz::io::TensorMap> tensors() const { return m_tensors; }
  /// While a changeConfig is being applied: what gen::fit_to_sizes did to the generation
  /// settings for the new sizes (one sentence per line); empty otherwise.
  [[nodiscard]] QString lastFitNotes() const { return m_fitNotes; }

  /// Pushes one undoable change to `next`. `text` is what Edit > Undo shows ("Set num_heads to
  /// 4"); consecutive changes with the same `mergeId` (>= 0) merge into one command.
  void changeConfig(const mhaviz::Config& next, const QString& text, int mergeId = -1);
  /// Changes how the configuration is shown (not part of the undo history), fitted to what can
  /// be shown (setViewBounds); announces Change::view when that changes anything. The view as asked
  /// is kept: a head the bounds leave out comes back when they take it in again.
  void setView(const ViewOptions& view);
  /// Fits the view as last asked to what can be shown (stages/view_options.hpp; until set,
  /// nothing is fitted). The computation sets the bounds as it starts on settings (their sizes)
  /// and when their result arrives (the stages it holds). Not announced: the result's arrival
  /// (Change::result) is when to draw with view(); announcing the view first would
  /// draw the result before under the view of the next.
  void setViewBounds(const ViewBounds& bounds);
  /// Where the open session came from. It belongs to the tensors: replacing them ends it.
  [[nodiscard]] const SessionOrigin& origin() const { return m_origin; }
  /// The open session was replaced while its tensors stayed (File > New without tensors):
  /// sets the origin and announces it (Change::origin, even when it is unchanged).
  void setOrigin(const SessionOrigin& origin);
  /// Replaces the tensors, and with them the origin (empty unless given: tensors from
  /// anywhere else are no model's layer), and applies the configuration again (Change::origin
  /// announced, then Change::config: what follows the origin sees it before the new settings).
  void setTensors(std::shared_ptr<const mhaviz::io::TensorMap> tensors,
                  const SessionOrigin& origin = {});
  /// Applies the configuration again as it is (Change::config), e.g. to compute it again.
  void reapply();

  /// What the computation made of the settings (compute/computation.hpp).
  [[nodiscard]] const Computed& computed() const { return m_computed; }
  /// Replaces it and announces `what` (one of the flags from Change::result on; when empty,
  /// nothing: a detail told with the announcement that follows, such as the region of a reduced
  /// result, told with the result). The computation calls this; nothing else does.
  void setComputed(const Computed& computed, Changes what);

  /// Compare mode's A (nullopt: not in compare mode); the settings above are B.
  [[nodiscard]] const std::optional<Pinned>& pinned() const { return m_pinned; }
  /// Pins `pinned` as A (nullopt: leaves compare mode) and announces Change::pinned. The compare
  /// panel pins the current result and computes an A given without one (a session's).
  void setPinned(std::optional<Pinned> pinned);

  /// The map of the open model selected: the model view outlines it, the comparison of two
  /// model files compares it; none while no model is open. The model pages (model/model_pages.hpp)
  /// set it as they open its layer as the session (or show a weights-only layer's weights).
  [[nodiscard]] const Selection& selection() const { return m_selection; }
  /// Selects `selection` and announces Change::selection, when it is another.
  void setSelection(const Selection& selection);

  /// The window's workspace shown (its key: "explore", "compare"...; empty until the window
  /// has shown one). The window's workspaces set it as they show one and show the one set
  /// here (the session's); one they cannot show is set back to theirs.
  [[nodiscard]] const QString& workspace() const { return m_workspace; }
  /// Sets the workspace and announces Change::workspace, when it is another.
  void setWorkspace(const QString& key);

 signals:
  /// `what` changed; the new state is read from config(), view(), origin(), computed(),
  /// pinned(), selection() and workspace(), one flag per announcement in the order things happen
  /// (the computation's busy ends before its result arrives; the picture is up to date again before
  /// the result is announced). A change made by a follower during an announcement is announced
  /// after it has reached every follower (the computation's busy after the new settings, for all of
  /// them), though the state it set is read at once. Change::origin: something new was opened or
  /// its tensors replaced (setTensors, setOrigin); the model view closes on anything that is not
  /// one of its layers.
  void changed(mhaviz::ui::Document::Changes what);
  /// changeConfig adapted masks, padding or labels to new sizes (gen::fit_to_sizes's notes).
  void sizesFitted(const QString& notes);

 private:
  void applyConfig(const mhaviz::Config& config);
  void announce(Changes what);  // emits `changed`, after the announcement under way if any

  mhaviz::Config m_config;
  // The user's masks, padding and labels before fitting, and the config last fitted from them.
  mhaviz::gen::UserValues m_userValues;
  mhaviz::Config m_fittedFromUserValues;
  ViewOptions m_asked;  // the view as last asked (setView)
  ViewOptions m_view;   // m_asked fitted to m_bounds
  ViewBounds m_bounds;
  QUndoStack m_undo;
  std::shared_ptr<const mhaviz::io::TensorMap> m_tensors;
  SessionOrigin m_origin;
  QString m_fitNotes;
  Computed m_computed;
  std::optional<Pinned> m_pinned;
  Selection m_selection;
  QString m_workspace;
  QList<Changes> m_queued;  // announcements waiting for the one under way
  bool m_announcing = false;
};

Q_DECLARE_OPERATORS_FOR_FLAGS(Document::Changes)

}  // namespace mhaviz::ui
