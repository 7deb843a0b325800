#include "cli/plot.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include <sys/statvfs.h>

#include "cli/cli_error.hpp"
#include "cli/commands.hpp"
#include "cli/output_file.hpp"
#include "cli/text_table.hpp"

namespace hcemu::cli {

namespace {

std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string extension(const std::string& path) { return std::filesystem::path(path).extension().string(); }

// Whether gnuplot wrote the whole file: it can exit 0 having written nothing, or part, on a full disk. A PNG ends
// with its IEND chunk, an SVG with its closing tag.
bool drawing_complete(const std::string& path, const std::string& ext) {
  std::ifstream in(path, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in.eof() && in.fail()) return false;
  static const std::string png_end("IEND\xae\x42\x60\x82", 8);
  if (ext == ".svg") return text.find("</svg>", text.size() < 16 ? 0 : text.size() - 16) != std::string::npos;
  return text.size() >= png_end.size() && text.compare(text.size() - png_end.size(), png_end.size(), png_end) == 0;
}

// ": No space left on device" when the file system of `path` has no room left: the likely reason.
std::string full_disk(const std::string& path) {
  struct statvfs fs {};
  const std::string folder = std::filesystem::path(path).parent_path().string();
  if (::statvfs(folder.empty() ? "." : folder.c_str(), &fs) == 0 && fs.f_bavail == 0)
    return std::string(": ") + std::strerror(ENOSPC);
  return "";
}

}  // namespace

std::string gnuplot_script(const PlotSpec& spec, const std::string& output) {
  std::ostringstream s;
  const std::string ext = extension(output);
  if (ext == ".svg")
    s << "set terminal svg size 900,600 dynamic enhanced font 'sans,12'\n";
  else
    s << "set terminal pngcairo size 900,600 enhanced font 'sans,11'\n";
  s << "set output " << quoted(output) << '\n';
  s << "set title " << quoted(spec.title) << " noenhanced\n";
  s << "set xlabel " << quoted(spec.x_label) << "\nset ylabel " << quoted(spec.y_label) << '\n';
  s << "set key top left noenhanced\nset grid\nset yrange [0:*]\n";
  // Inline data blocks ($curve0 << EOD) keep the plot one self-contained script.
  for (std::size_t c = 0; c < spec.curves.size(); ++c) {
    s << "$curve" << c << " << EOD\n";
    for (const auto& p : spec.curves[c].points) {
      s << shortest(p.m) << ' ' << (p.emulated_us ? shortest(*p.emulated_us / 1000) : "NaN") << ' '
        << (p.predicted_us ? shortest(*p.predicted_us / 1000) : "NaN") << '\n';
    }
    s << "EOD\n";
  }
  s << "plot ";
  bool first = true;
  for (std::size_t c = 0; c < spec.curves.size(); ++c) {
    const std::string color = " lc " + std::to_string(c + 1);
    // A curve with nothing to draw (predicted only, and no closed form) is left out: gnuplot refuses empty plots.
    const auto& points = spec.curves[c].points;
    if (spec.predicted_only &&
        std::none_of(points.begin(), points.end(), [](const PlotPoint& p) { return p.predicted_us.has_value(); }))
      continue;
    if (!first) s << ", \\\n     ";
    first = false;
    if (spec.predicted_only) {
      s << "$curve" << c << " using 1:3 with lines lw 2 dt 1" << color << " title " << quoted(spec.curves[c].label);
      continue;
    }
    // Solid: emulated (the paper's "measured"); dashed: predicted by the closed form.
    s << "$curve" << c << " using 1:2 with lines lw 2 dt 1" << color << " title " << quoted(spec.curves[c].label)
      << ", $curve" << c << " using 1:3 with lines lw 1 dt 2" << color << " notitle";
  }
  s << '\n';
  return s.str();
}

void draw_plot(const PlotSpec& spec, const std::string& output) {
  const std::string ext = extension(output);
  if (ext != ".png" && ext != ".svg") throw UsageError("--plot " + output + ": the file must end in .png or .svg");
  if (!writes_files()) return;  // another MPI rank than the first
  // gnuplot draws into the temporary beside the file, which is renamed over it only once gnuplot has succeeded
  // and the drawing is complete.
  OutputFile file(output, "--plot");
  OutputFile script(OutputFile::Scratch{}, "--plot " + output + ": the gnuplot script", "plot", ".gp");
  script.stream() << gnuplot_script(spec, file.writing_path());
  script.close();
  std::string command = "gnuplot " + quoted(script.writing_path()) + " 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) throw Error("cannot start gnuplot");
  std::string messages;
  char buffer[256];
  while (std::fgets(buffer, sizeof buffer, pipe)) messages += buffer;
  const int status = ::pclose(pipe);
  if (status != 0) {
    if (messages.find("not found") != std::string::npos)
      throw Error("gnuplot is not installed (apt-get install gnuplot-nox); the plot was not drawn");
    throw Error("gnuplot failed drawing " + output + ": " + messages);
  }
  if (!drawing_complete(file.writing_path(), extension(output)))
    throw OutputError("--plot " + output + ": gnuplot could not write the whole file" +
                      (messages.empty() ? "" : ": " + messages.substr(0, messages.find('\n'))) + full_disk(output));
  file.commit();
}

}  // namespace hcemu::cli
