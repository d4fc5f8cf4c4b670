#include "cli/sink_eps.hpp"

#include "cli/usage_error.hpp"
#include "mhaviz/core/analysis/sink.hpp"

namespace mhaviz::cli {

double sinkEps(const QCommandLineParser& parser) {
  const QString option = QStringLiteral("sink-eps");
  if (!parser.isSet(option)) return kDefaultSinkEps;
  bool ok = false;
  const double eps = parser.value(option).toDouble(&ok);
  if (!ok) {
    throw UsageError(QStringLiteral("--sink-eps \"%1\" is not a number: give a weight share in "
                                    "(0, 1], e.g. --sink-eps 0.3")
                         .arg(parser.value(option))
                         .toStdString());
  }
  check_sink_eps(eps, "--sink-eps");
  return eps;
}

}  // namespace mhaviz::cli
