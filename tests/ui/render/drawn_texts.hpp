#pragma once
// Texts as drawn (issue 40): a paint device that records each text item a painting draws, with
// its box and the clip it was drawn under, and the audit of those boxes: inside the canvas, not
// cut by their box, not drawn over one another. Used by the Image view's tests (tests/ui/vision)
// and by the window's layout audit of pictures (tests/ui/window/picture_audit.hpp).

#include <QPaintDevice>
#include <QPaintEngine>
#include <QPainter>
#include <QRectF>
#include <QSizeF>
#include <QString>
#include <QStringList>
#include <QTextItem>
#include <QTransform>
#include <vector>

namespace mhaviz::ui::testing {

struct DrawnText {
  QString text;
  QRectF box;   // logical units of the picture
  QRectF clip;  // where the painter clipped it (null: no clip)
};

/// A paint device that draws nothing and records the text items painted on it, with the
/// metrics of the device `like` (a PNG canvas).
class TextRecorder : public QPaintDevice {
 public:
  explicit TextRecorder(const QPaintDevice& like) : m_like(like) {}
  ~TextRecorder() override = default;
  [[nodiscard]] QPaintEngine* paintEngine() const override { return &m_engine; }
  [[nodiscard]] const std::vector<DrawnText>& texts() const { return m_engine.texts; }

 protected:
  [[nodiscard]] int metric(PaintDeviceMetric m) const override {
    switch (m) {
      case PdmWidth:
        return m_like.width();
      case PdmHeight:
        return m_like.height();
      case PdmWidthMM:
        return m_like.widthMM();
      case PdmHeightMM:
        return m_like.heightMM();
      case PdmNumColors:
        return m_like.colorCount();
      case PdmDepth:
        return m_like.depth();
      case PdmDpiX:
        return m_like.logicalDpiX();
      case PdmDpiY:
        return m_like.logicalDpiY();
      case PdmPhysicalDpiX:
        return m_like.physicalDpiX();
      case PdmPhysicalDpiY:
        return m_like.physicalDpiY();
      case PdmDevicePixelRatio:
        return static_cast<int>(m_like.devicePixelRatio());
      case PdmDevicePixelRatioScaled:
        return static_cast<int>(m_like.devicePixelRatioF() * devicePixelRatioFScale());
    }
    return 0;
  }

 private:
  class Engine : public QPaintEngine {
   public:
    Engine() : QPaintEngine(QPaintEngine::AllFeatures) {}
    bool begin(QPaintDevice*) override { return true; }
    bool end() override { return true; }
    void updateState(const QPaintEngineState&) override {}
    void drawPixmap(const QRectF&, const QPixmap&, const QRectF&) override {}
    void drawImage(const QRectF&, const QImage&, const QRectF&, Qt::ImageConversionFlags) override {
    }
    void drawPath(const QPainterPath&) override {}
    void drawPolygon(const QPointF*, int, PolygonDrawMode) override {}
    void drawLines(const QLineF*, int) override {}
    void drawRects(const QRectF*, int) override {}
    void drawEllipse(const QRectF&) override {}
    void drawTextItem(const QPointF& p, const QTextItem& item) override {
      // The painter's transform holds the device pixel ratio: back to logical units.
      const qreal dpr = painter()->device()->devicePixelRatioF();
      const QTransform t = painter()->combinedTransform() * QTransform::fromScale(1 / dpr, 1 / dpr);
      const QRectF box(p.x(), p.y() - item.ascent(), item.width(), item.ascent() + item.descent());
      DrawnText drawn{item.text(), t.mapRect(box), {}};
      if (painter()->hasClipping()) drawn.clip = t.mapRect(painter()->clipBoundingRect());
      texts.push_back(drawn);
    }
    [[nodiscard]] Type type() const override { return QPaintEngine::User; }
    std::vector<DrawnText> texts;
  };
  const QPaintDevice& m_like;
  mutable Engine m_engine;
};

inline QString sizeText(QSizeF s) { return QStringLiteral("%1x%2").arg(s.width()).arg(s.height()); }

/// The recorded `texts` whose boxes leave `canvas` or their clip (one pixel of tolerance), and
/// those drawn over another (overlapping by more than two pixels each way: legend ticks one over
/// the other); `what` names the picture.
inline QStringList auditDrawnTexts(const std::vector<DrawnText>& texts, QSizeF canvas,
                                   const QString& what) {
  QStringList problems;
  const QRectF whole = QRectF(QPointF(0, 0), canvas).adjusted(-1, -1, 1, 1);
  for (std::size_t i = 0; i < texts.size(); ++i) {
    const DrawnText& t = texts[i];
    const auto box = QStringLiteral("(%1,%2 %3x%4)")
                         .arg(t.box.x(), 0, 'f', 0)
                         .arg(t.box.y(), 0, 'f', 0)
                         .arg(t.box.width(), 0, 'f', 0)
                         .arg(t.box.height(), 0, 'f', 0);
    if (!whole.contains(t.box)) {
      problems << QStringLiteral("%1: text \"%2\" %3 leaves the %4 canvas")
                      .arg(what, t.text.left(50), box, sizeText(canvas));
    } else if (!t.clip.isNull() && !t.clip.adjusted(-1, -1, 1, 1).contains(t.box)) {
      problems << QStringLiteral("%1: text \"%2\" %3 cut by its box (%4,%5 %6x%7)")
                      .arg(what, t.text.left(50), box)
                      .arg(t.clip.x(), 0, 'f', 0)
                      .arg(t.clip.y(), 0, 'f', 0)
                      .arg(t.clip.width(), 0, 'f', 0)
                      .arg(t.clip.height(), 0, 'f', 0);
    }
    for (std::size_t j = 0; j < i; ++j) {
      const QRectF both = t.box.intersected(texts[j].box);
      // Pieces of one line (a change of script) only touch; the same text drawn twice (bold
      // over plain) is one text.
      if (both.width() > 2 && both.height() > 2 && t.text.trimmed() != texts[j].text.trimmed()) {
        problems << QStringLiteral("%1: text \"%2\" %3 drawn over \"%4\"")
                        .arg(what, t.text.left(50), box, texts[j].text.left(50));
      }
    }
  }
  if (texts.empty()) problems << what + QStringLiteral(": no text drawn");
  return problems;
}

}  // namespace mhaviz::ui::testing
