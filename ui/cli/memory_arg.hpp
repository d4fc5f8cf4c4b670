#pragma once
// Parsing of byte sizes given on the command line (--max-memory).

#include <QString>
#include <cstdint>
#include <optional>

namespace mhaviz::cli {

/// Parses "4GiB", "512MiB", "1.5 GiB", "64KiB", "2GB", "1e6", "123" (bytes).
/// Binary units: KiB, MiB, GiB, TiB and the bare K, M, G, T; decimal units: kB/KB, MB, GB, TB;
/// "B" or no unit means bytes. Units are case-insensitive except that "b" alone is bytes.
/// Returns nullopt for malformed text, a size of zero or one that does not fit in 64 bits.
std::optional<std::uint64_t> parseByteSize(const QString& text);

}  // namespace mhaviz::cli
