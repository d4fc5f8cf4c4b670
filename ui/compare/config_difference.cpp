#include "compare/config_difference.hpp"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>

#include "mhaviz/core/io/config_json.hpp"

namespace mhaviz::ui {

namespace {

QJsonObject asJson(const mhaviz::Config& config) {
  return QJsonDocument::fromJson(QByteArray::fromStdString(mhaviz::io::config_to_json(config)))
      .object();
}

QString shown(const QJsonValue& value) {
  QString text;
  if (value.isString()) {
    text = value.toString();
  } else if (value.isBool()) {
    text = value.toBool() ? QStringLiteral("True") : QStringLiteral("False");
  } else if (value.isDouble()) {
    text = QString::number(value.toDouble(), 'g', 6);
  } else if (value.isNull() || value.isUndefined()) {
    text = QStringLiteral("None");
  } else {
    text = QString::fromUtf8(
        (value.isArray() ? QJsonDocument(value.toArray()) : QJsonDocument(value.toObject()))
            .toJson(QJsonDocument::Compact));
  }
  constexpr int kLongest = 40;
  return text.size() > kLongest ? text.left(kLongest - 1) + QChar(0x2026) : text;
}

}  // namespace

QStringList differingSettings(const mhaviz::Config& mine, const mhaviz::Config& other) {
  const QJsonObject a = asJson(mine), b = asJson(other);
  static const QStringList kInHeader = {QStringLiteral("tgt_len"), QStringLiteral("src_len"),
                                        QStringLiteral("batch_size"), QStringLiteral("embed_dim"),
                                        QStringLiteral("num_heads")};
  QStringList keys = a.keys();
  for (const QString& k : b.keys()) {
    if (!keys.contains(k)) keys << k;
  }
  QStringList out;
  for (const QString& key : keys) {
    if (kInHeader.contains(key) || a.value(key) == b.value(key)) continue;
    out << key + QLatin1Char('=') + shown(a.value(key));
  }
  return out;
}

}  // namespace mhaviz::ui
