// mhaviz-cli run: the forward pass, every tensor written to one file.

#include <filesystem>
#include <iostream>

#include "cli/commands.hpp"
#include "cli/output_path.hpp"
#include "cli/problem_options.hpp"
#include "cli/run_part.hpp"
#include "cli/usage_error.hpp"
#include "mhaviz/core/io/result_tensors.hpp"
#include "mhaviz/core/io/tensor_file.hpp"

namespace mhaviz::cli {

void addRunOptions(QCommandLineParser& parser) {
  addProblemOptions(parser, true);
  parser.addOption({QStringLiteral("out"),
                    QStringLiteral("Output file (.npz, or .safetensors) for attn_output, "
                                   "attn_output_weights and every intermediate."),
                    QStringLiteral("R.npz")});
  parser.addOption({QStringLiteral("compress"),
                    QStringLiteral("Deflate the .npz members (numpy.savez_compressed's format); "
                                   "by default they are stored like numpy.savez, which writes "
                                   "several times faster.")});
  addRunPartOptions(parser);
}

int runCommand(const QCommandLineParser& parser) {
  const QString out = requiredValue(parser, QStringLiteral("out"));
  requireSuffix(QStringLiteral("out"), out,
                {QStringLiteral(".npz"), QStringLiteral(".safetensors")});
  const bool compress = parser.isSet(QStringLiteral("compress"));
  if (compress && !out.endsWith(QStringLiteral(".npz"), Qt::CaseInsensitive)) {
    throw UsageError("--compress applies to .npz only; a .safetensors file is never compressed");
  }
  const RunPart part = parseRunPart(parser);
  if (part.requested) return runPart(parser, part, out, compress);
  const ForwardResult result = computeResult(parser, nullptr, runPartHint());
  // raw_scores, mask and scores are derived piece by piece as the file is written.
  const io::StreamedTensors tensors = io::result_stream(result);
  io::write_tensor_file_streamed(std::filesystem::path(out.toStdString()), tensors, compress);
  std::cout << "wrote " << tensors.size() << " tensors to " << out.toStdString() << " (attn_output "
            << shape_str(result.attn_output.shape()) << ")\n"
            << result.path.reason << '\n';
  return kExitOk;
}

}  // namespace mhaviz::cli
