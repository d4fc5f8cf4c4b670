#pragma once
// --sink-eps, the threshold of the sink rate (Gu et al. 2024), shared by stats and model.

#include <QCommandLineParser>

namespace mhaviz::cli {

/// The value of --sink-eps, or mhaviz::kDefaultSinkEps when it is not given. Throws UsageError
/// for text that is not a number and mhaviz::InvalidInput (exit 1) for a number outside (0, 1].
double sinkEps(const QCommandLineParser& parser);

}  // namespace mhaviz::cli
