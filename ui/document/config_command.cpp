#include "document/config_command.hpp"

#include <utility>

namespace mhaviz::ui {

ConfigCommand::ConfigCommand(mhaviz::Config before, mhaviz::Config after, const QString& text,
                             int mergeId, std::function<void(const mhaviz::Config&)> apply)
    : QUndoCommand(text),
      m_before(std::move(before)),
      m_after(std::move(after)),
      m_mergeId(mergeId),
      m_apply(std::move(apply)) {}

void ConfigCommand::redo() { m_apply(m_after); }

void ConfigCommand::undo() { m_apply(m_before); }

bool ConfigCommand::mergeWith(const QUndoCommand* other) {
  const auto* next = dynamic_cast<const ConfigCommand*>(other);
  if (next == nullptr || m_mergeId < 0 || next->m_mergeId != m_mergeId) return false;
  m_after = next->m_after;
  setText(next->text());
  // Back where the run of edits started (e.g. 8 -> 9 -> 8): nothing left to undo.
  setObsolete(m_after == m_before);
  return true;
}

}  // namespace mhaviz::ui
