// snapscope-gen: writes a synthetic but realistic torch CUDA memory snapshot pickle.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/gen/gen_options.h"
#include "core/gen/gzip_ostream.h"
#include "core/gen/snapshot_generator.h"
#include "core/store/version/version.h"
#include "core/util/byte_size.h"

namespace {

using snapscope::gen::GenOptions;

constexpr const char* kUsage =
    "usage: snapscope-gen -o FILE [--size 100MB | --events N] [--devices N] [--seed S]\n"
    "                     [--no-timestamps] [--protocol P] [--gzip] [--compile-context]\n"
    "                     [--user-metadata] [--no-annotations] [--no-ghosts]\n"
    "                     [--host-batches N] [--memory-notes] [--mem-pool] [--forward-frames]\n"
    "Writes a deterministic synthetic PyTorch CUDA memory snapshot (torch.cuda.memory._dump_snapshot\n"
    "format). -o - writes to stdout. --host-batches N adds pinned host memory (host_segments,\n"
    "host_traces) of N pinned batches, as record_pinned_host_memory=True records it. --memory-notes adds\n"
    "annotate events (torch.cuda.memory._annotate_memory) on every 40th allocation. --mem-pool\n"
    "all-gathers each layer's parameters into a private pool (torch.cuda.MemPool (0, 1)), as FSDP does.\n"
    "--forward-frames gives backward allocations the forward op's traceback (forward_frames).\n";

struct CliOptions {
  GenOptions gen;
  std::string output;
  bool gzip = false;
};

uint64_t parse_number(std::string_view flag, std::string_view text) {
  auto value = snapscope::parse_byte_size(text);
  if (!value) throw std::invalid_argument(std::string(flag) + ": not a number: '" + std::string(text) + "'");
  return *value;
}

CliOptions parse_args(const std::vector<std::string_view>& args) {
  CliOptions cli;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string_view arg = args[i];
    const auto value = [&]() -> std::string_view {
      if (i + 1 >= args.size()) throw std::invalid_argument(std::string(arg) + " needs a value");
      return args[++i];
    };
    if (arg == "-o" || arg == "--output")
      cli.output = value();
    else if (arg == "--size")
      cli.gen.target_bytes = parse_number(arg, value());
    else if (arg == "--events")
      cli.gen.events = parse_number(arg, value());
    else if (arg == "--devices")
      cli.gen.devices = static_cast<int>(parse_number(arg, value()));
    else if (arg == "--seed")
      cli.gen.seed = parse_number(arg, value());
    else if (arg == "--protocol")
      cli.gen.protocol = static_cast<int>(parse_number(arg, value()));
    else if (arg == "--no-timestamps")
      cli.gen.timestamps = false;
    else if (arg == "--gzip")
      cli.gzip = true;
    else if (arg == "--compile-context")
      cli.gen.compile_context = true;
    else if (arg == "--user-metadata")
      cli.gen.user_metadata = true;
    else if (arg == "--no-annotations")
      cli.gen.annotations = false;
    else if (arg == "--no-ghosts")
      cli.gen.ghost_parameters = false;
    else if (arg == "--memory-notes")
      cli.gen.memory_notes = true;
    else if (arg == "--mem-pool")
      cli.gen.mem_pool = true;
    else if (arg == "--forward-frames")
      cli.gen.forward_frames = true;
    else if (arg == "--host-batches")
      cli.gen.host_batches = parse_number(arg, value());
    else
      throw std::invalid_argument("unknown argument '" + std::string(arg) + "'");
  }
  if (cli.output.empty()) throw std::invalid_argument("missing -o FILE");
  if (cli.gen.devices < 1 || cli.gen.devices > 64) throw std::invalid_argument("--devices must be 1..64");
  if (cli.gen.protocol > 5) throw std::invalid_argument("--protocol must be 0..5");
  return cli;
}

snapscope::gen::GenResult generate(const CliOptions& cli, std::ostream& out) {
  if (!cli.gzip) return snapscope::gen::write_snapshot(cli.gen, out);
  snapscope::gen::GzipOStream gz(out);
  const auto result = snapscope::gen::write_snapshot(cli.gen, gz);
  if (!gz.finish()) throw std::runtime_error(cli.output + ": write failed");
  return result;
}

int run(const CliOptions& cli) {
  const auto start = std::chrono::steady_clock::now();
  snapscope::gen::GenResult result;
  if (cli.output == "-") {
    result = generate(cli, std::cout);
    std::cout.flush();
  } else {
    std::ofstream file(cli.output, std::ios::binary | std::ios::trunc);
    if (!file) throw std::runtime_error(cli.output + ": cannot open for writing");
    result = generate(cli, file);
    file.close();
    if (!file) throw std::runtime_error(cli.output + ": write failed");
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::fprintf(stderr, "%s: %llu bytes, %llu events, %llu segments, %.2f s (%.0f MB/s)\n", cli.output.c_str(),
               static_cast<unsigned long long>(result.bytes), static_cast<unsigned long long>(result.events),
               static_cast<unsigned long long>(result.segments), seconds,
               static_cast<double>(result.bytes) / 1e6 / seconds);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (snapscope::asks_for_version(argc, argv))
    return std::fputs(snapscope::version_text("snapscope-gen").c_str(), stdout), 0;
  const std::vector<std::string_view> args(argv + 1, argv + argc);
  for (std::string_view arg : args) {
    if (arg == "-h" || arg == "--help") {
      std::fputs(kUsage, stdout);
      return 0;
    }
  }
  try {
    return run(parse_args(args));
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "snapscope-gen: %s\n%s", e.what(), kUsage);
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "snapscope-gen: %s\n", e.what());
    return 1;
  }
}
