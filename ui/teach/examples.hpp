#pragma once
// The bundled example sessions (resources/examples/*.json, compiled in under ":/examples"):
// mhaviz configuration files opened from File > Examples. GUI thread for the menu.

#include <QList>
#include <QString>
#include <functional>

#include "mhaviz/core/spec/config.hpp"

class QMenu;
class QWidget;

namespace mhaviz::ui {

struct ExampleSession {
  QString title;     // menu entry (translated)
  QString resource;  // ":/examples/causal_self_attention.json"
};

/// Every bundled example, in menu order.
QList<ExampleSession> exampleSessions();

/// Parses an example's configuration. Throws InvalidInput naming the file on a bad resource.
mhaviz::Config loadExample(const QString& resource);

/// The first picture after start when nothing else is opened: sinusoidal positions through
/// scaled identity projections, so the four heads differ at a glance (high-frequency heads look
/// near the diagonal, low-frequency heads broadly) instead of showing weights near 1/S.
inline constexpr char kFirstPictureResource[] = ":/examples/first_picture.json";

/// Adds File > Examples; choosing one calls `open` with its title and configuration (the
/// window opens it as it opens a file: SessionFiles::openExample). Errors are shown in a
/// message box.
QMenu* addExamplesMenu(QMenu* file,
                       std::function<void(const QString& title, const mhaviz::Config&)> open,
                       QWidget* parent);

}  // namespace mhaviz::ui
