#pragma once
// Records what a Computation announces (Computation::changed) of the kinds asked for, with its
// state as it stood at each announcement, for tests that count or wait for results, busy,
// out-of-date or reduced changes.

#include <QList>
#include <QObject>
#include <QString>

#include "compute/computation.hpp"

namespace mhaviz::ui::testing {

struct Announced {
  Announced(Computation* computation, Computation::Changes kinds) {
    m_connection = QObject::connect(computation, &Computation::changed, computation,
                                    [this, computation, kinds](Computation::Changes what) {
                                      if (!(what & kinds)) return;
                                      changes.append(what);
                                      results.append(computation->result());
                                      analyses.append(computation->analyses());
                                      busy.append(computation->isBusy());
                                      outOfDate.append(computation->isOutOfDate());
                                      reasons.append(computation->outOfDateReason());
                                      descriptions.append(computation->reducedDescription());
                                    });
  }
  ~Announced() { QObject::disconnect(m_connection); }
  Announced(const Announced&) = delete;
  Announced& operator=(const Announced&) = delete;

  [[nodiscard]] qsizetype count() const { return changes.size(); }

  QList<Computation::Changes> changes;
  QList<ResultPtr> results;
  QList<AnalysesPtr> analyses;
  QList<bool> busy;
  QList<bool> outOfDate;
  QList<QString> reasons;       // outOfDateReason()
  QList<QString> descriptions;  // reducedDescription()

 private:
  QMetaObject::Connection m_connection;
};

}  // namespace mhaviz::ui::testing
