#include "ui/window/app_info.hpp"

#include <QCoreApplication>
#include <QMessageBox>

#ifndef MHAVIZ_VERSION
#error "MHAVIZ_VERSION must be defined by the build (PROJECT_VERSION)"
#endif

namespace mhaviz::ui {

QString applicationVersion() { return QStringLiteral(MHAVIZ_VERSION); }

void setApplicationInfo() {
  QCoreApplication::setOrganizationName(QStringLiteral("mhaviz"));
  QCoreApplication::setApplicationName(QStringLiteral("mhaviz"));
  QCoreApplication::setApplicationVersion(applicationVersion());
}

void showAboutDialog(QWidget* parent) {
  QMessageBox::about(
      parent, QObject::tr("About mhaviz"),
      QObject::tr("<h3>mhaviz %1</h3>"
                  "<p>A multi-head attention visualiser: it computes exactly what PyTorch's "
                  "<code>nn.MultiheadAttention</code> computes, keeps every intermediate and "
                  "draws one heatmap per head, including the extra key columns of "
                  "<code>add_bias_kv</code> (bias_k) and <code>add_zero_attn</code> (zero).</p>"
                  "<p>Hover over a cell for its head, query, key and value; the mouse wheel "
                  "zooms a map. Every parameter change can be undone (Ctrl+Z).</p>")
          .arg(applicationVersion()));
}

}  // namespace mhaviz::ui
