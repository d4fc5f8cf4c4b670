#include "document/document.hpp"

#include <QStringList>

#include "document/config_command.hpp"

namespace mhaviz::ui {

Document::Document(QObject* parent) : QObject(parent) {}

Document::~Document() = default;

void Document::changeConfig(const mhaviz::Config& requested, const QString& text, int mergeId) {
  // The user's masks, padding and labels are kept as they made them (m_userValues) and fitted
  // to the sizes here: what a smaller size cuts comes back when it grows again.
  mhaviz::gen::UserValues values = m_userValues;
  values.take_edits(m_config, requested);
  mhaviz::Config next = requested;
  const std::vector<std::string> fitNotes = values.fit(next);
  m_userValues = values;
  if (next == m_config) return;
  QStringList notes;
  const bool resized = next.tgt_len != m_config.tgt_len || next.src_len != m_config.src_len ||
                       next.batch() != m_config.batch() || next.num_heads != m_config.num_heads;
  for (const std::string& note : fitNotes) {
    if (resized) notes << QString::fromStdString(note);
  }
  m_fitNotes = notes.join(u'\n');
  m_fittedFromUserValues = next;
  m_undo.push(new ConfigCommand(m_config, next, text, mergeId,
                                [this](const mhaviz::Config& c) { applyConfig(c); }));
  m_fitNotes.clear();
  if (!notes.isEmpty()) emit sizesFitted(notes.join(u'\n'));
}

void Document::setView(const ViewOptions& view) {
  m_asked = view;
  const ViewOptions fitted = fitView(view, m_bounds);
  if (fitted == m_view) return;
  m_view = fitted;
  announce(Change::view);
}

void Document::setViewBounds(const ViewBounds& bounds) {
  m_bounds = bounds;
  m_view = fitView(m_asked, m_bounds);
}

void Document::setOrigin(const SessionOrigin& origin) {
  m_origin = origin;
  announce(Change::origin);
}

void Document::setTensors(std::shared_ptr<const mhaviz::io::TensorMap> tensors,
                          const SessionOrigin& origin) {
  m_tensors = std::move(tensors);
  setOrigin(origin);
  reapply();
}

void Document::reapply() { applyConfig(m_config); }

void Document::setComputed(const Computed& computed, Changes what) {
  m_computed = computed;
  if (what) announce(what);
}

void Document::setPinned(std::optional<Pinned> pinned) {
  m_pinned = std::move(pinned);
  announce(Change::pinned);
}

void Document::setSelection(const Selection& selection) {
  if (selection == m_selection) return;
  m_selection = selection;
  announce(Change::selection);
}

void Document::setWorkspace(const QString& key) {
  if (key == m_workspace) return;
  m_workspace = key;
  announce(Change::workspace);
}

void Document::announce(Changes what) {
  // A follower that changes the document while a change is being announced (the computation
  // starts on new settings, the session applies a view when a result arrives) has its change
  // announced once the one under way has reached every follower: all see one order.
  m_queued.append(what);
  if (m_announcing) return;
  m_announcing = true;
  while (!m_queued.isEmpty()) emit changed(m_queued.takeFirst());
  m_announcing = false;
}

void Document::applyConfig(const mhaviz::Config& config) {
  m_config = config;
  // Undo, redo and opened files bring their own values: remember those from now on.
  if (config != m_fittedFromUserValues) {
    m_userValues = mhaviz::gen::UserValues(config);
    m_fittedFromUserValues = config;
  }
  announce(Change::config);
}

}  // namespace mhaviz::ui
