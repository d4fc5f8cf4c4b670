#pragma once
// mhaviz-cli model --view image: a vision transformer's attention over its image (model file
// version 3) drawn as the window's Image view draws it, to PNG, SVG or PDF, and its numbers
// written to an .npz.

#include <QCommandLineParser>
#include <QSize>

#include "mhaviz/core/model/model.hpp"

namespace mhaviz::cli {

/// The options of --view image alone (--opacity, --upsampling, --overlay, --colormap); --view, --layer,
/// --head and --query are model_sources.hpp's, shared with the layer views.
void addModelImageOptions(QCommandLineParser& parser);

/// True when --view image was given.
bool imageViewAsked(const QCommandLineParser& parser);

/// Throws UsageError when an image-view option is given without --view image.
void refuseImageOptionsWithoutView(const QCommandLineParser& parser);

/// Draws (--image) and writes (--out) the image view of batch element `batch`.
void modelImageCommand(const QCommandLineParser& parser, const model::Model& model,
                       const model::ComputedModel& computed, int batch, QSize size);

}  // namespace mhaviz::cli
