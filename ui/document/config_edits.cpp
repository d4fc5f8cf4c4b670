#include "document/config_edits.hpp"

#include <QObject>

#include "document/document.hpp"

namespace mhaviz::ui {

void ConfigEdits::edit(const QString& text, const std::function<void(mhaviz::Config&)>& change,
                       int mergeId) const {
  if (m_showing) return;  // the controls are following the document, not the user
  mhaviz::Config next = m_document->config();
  change(next);
  m_document->changeConfig(next, text, mergeId);
}

void ConfigEdits::follow(QObject* context, std::function<void(const mhaviz::Config&)> show) {
  m_show = std::move(show);
  QObject::connect(m_document, &Document::changed, context, [this](Document::Changes what) {
    if (what & Document::Change::config) showConfig(m_document->config());
  });
  showConfig(m_document->config());
}

void ConfigEdits::show() { showConfig(m_document->config()); }

void ConfigEdits::showConfig(const mhaviz::Config& config) {
  if (!m_show) return;
  m_showing = true;
  m_show(config);
  m_showing = false;
}

}  // namespace mhaviz::ui
