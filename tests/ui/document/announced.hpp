#pragma once
// Records what a Document announces (Document::changed) of the kinds asked for, with the
// document as it stood at each announcement: its settings and view, and what its computation
// made of them (Document::computed), for tests that count or wait for changes, results, busy,
// out-of-date or reduced changes.

#include <QList>
#include <QObject>
#include <QString>

#include "document/document.hpp"

namespace mhaviz::ui::testing {

struct Announced {
  Announced(Document* document, Document::Changes kinds) {
    m_connection = QObject::connect(document, &Document::changed, document,
                                    [this, document, kinds](Document::Changes what) {
                                      if (!(what & kinds)) return;
                                      changes.append(what);
                                      configs.append(document->config());
                                      views.append(document->view());
                                      const Computed& c = document->computed();
                                      results.append(c.result);
                                      analyses.append(c.analyses);
                                      busy.append(c.busy);
                                      outOfDate.append(c.outOfDate);
                                      reasons.append(c.outOfDateReason);
                                      descriptions.append(c.reduced);
                                    });
  }
  ~Announced() { QObject::disconnect(m_connection); }
  Announced(const Announced&) = delete;
  Announced& operator=(const Announced&) = delete;

  [[nodiscard]] qsizetype count() const { return changes.size(); }

  QList<Document::Changes> changes;
  QList<mhaviz::Config> configs;
  QList<ViewOptions> views;
  QList<ResultPtr> results;
  QList<AnalysesPtr> analyses;
  QList<bool> busy;
  QList<bool> outOfDate;
  QList<QString> reasons;       // outOfDateReason
  QList<QString> descriptions;  // reduced

 private:
  QMetaObject::Connection m_connection;
};

}  // namespace mhaviz::ui::testing
