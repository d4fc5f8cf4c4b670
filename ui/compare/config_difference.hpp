#pragma once
// What compare mode's headers name besides the sizes: every setting of one configuration that
// differs from the other's (semantics, masks, flags, seeds...), as "key=value" in the
// configuration file's own keys and values.

#include <QStringList>

#include "mhaviz/core/spec/config.hpp"

namespace mhaviz::ui {

/// The settings of `mine` whose configuration-file value differs from `other`'s, in file order,
/// as "key=value" (long values shortened); the sizes the header shows anyway (L, S, N, E, H)
/// are left out.
QStringList differingSettings(const mhaviz::Config& mine, const mhaviz::Config& other);

}  // namespace mhaviz::ui
