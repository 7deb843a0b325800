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
// with its IEND chunk, an SVG with its closing tag, a PDF with its %%EOF marker.
bool drawing_complete(const std::string& path, const std::string& ext) {
  std::ifstream in(path, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in.eof() && in.fail()) return false;
  static const std::string png_end("IEND\xae\x42\x60\x82", 8);
  if (ext == ".svg") return text.find("</svg>", text.size() < 16 ? 0 : text.size() - 16) != std::string::npos;
  if (ext == ".pdf") return text.find("%%EOF", text.size() < 16 ? 0 : text.size() - 16) != std::string::npos;
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

namespace {

// Twelve colours that stay apart for colour-blind readers too (Paul Tol's "bright" and "muted" schemes); past them a
// curve keeps its colour's cycle and gets a point shape of its own, so no two curves look alike.
constexpr const char* kPalette[] = {"#4477AA", "#EE6677", "#228833", "#CCBB44", "#66CCEE", "#AA3377",
                                    "#332288", "#117733", "#882255", "#999933", "#44AA99", "#BBBBBB"};
constexpr std::size_t kColours = std::size(kPalette);

std::string curve_style(std::size_t c) {
  std::string style = " lc rgb '" + std::string(kPalette[c % kColours]) + "'";
  if (c >= kColours) style += " pt " + std::to_string(c / kColours + 4) + " pi -4 ps 0.8";
  return style;
}

std::string terminal(const std::string& ext) {
  if (ext == ".svg") return "svg size 1000,600 dynamic enhanced font 'sans,12'";
  if (ext == ".pdf") return "pdfcairo size 7in,4.2in enhanced font 'sans,9'";
  return "pngcairo size 1000,600 enhanced font 'sans,11'";
}

}  // namespace

std::string gnuplot_script(const PlotSpec& spec, const std::string& output) {
  std::ostringstream s;
  s << "# Drawn by hcemu; edit and run again with: gnuplot THIS_FILE\n";
  s << "set terminal " << terminal(extension(output)) << '\n';
  s << "set output " << quoted(output) << '\n';
  s << "set title " << quoted(spec.title) << " noenhanced\n";
  s << "set xlabel " << quoted(spec.x_label) << "\nset ylabel " << quoted(spec.y_label) << '\n';
  // The legend stands right of the plot, where it covers no curve.
  s << "set key outside right top vertical Left reverse noenhanced samplen 3\nset grid\nset yrange [0:*]\n";
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
    const std::string style = curve_style(c);
    const std::string with = c >= kColours ? " with linespoints" : " with lines";
    // A curve with nothing to draw (predicted only, and no closed form) is left out: gnuplot refuses empty plots.
    const auto& points = spec.curves[c].points;
    if (spec.predicted_only &&
        std::none_of(points.begin(), points.end(), [](const PlotPoint& p) { return p.predicted_us.has_value(); }))
      continue;
    if (!first) s << ", \\\n     ";
    first = false;
    if (spec.predicted_only) {
      s << "$curve" << c << " using 1:3" << with << " lw 2 dt 1" << style << " title " << quoted(spec.curves[c].label);
      continue;
    }
    // Solid: emulated (the paper's "measured"); dashed: predicted by the closed form.
    s << "$curve" << c << " using 1:2" << with << " lw 2 dt 1" << style << " title " << quoted(spec.curves[c].label)
      << ", $curve" << c << " using 1:3 with lines lw 1 dt 2" << style << " notitle";
  }
  s << '\n';
  return s.str();
}

void check_plot_name(const std::string& output) {
  const std::string ext = extension(output);
  if (ext != ".png" && ext != ".svg" && ext != ".pdf")
    throw UsageError("--plot " + output + ": the file must end in .png, .svg or .pdf");
}

void draw_plot(const PlotSpec& spec, const std::string& output, const std::string& script_path) {
  check_plot_name(output);
  if (!writes_files()) return;  // another MPI rank than the first
  if (!script_path.empty()) {
    // The script as the user would run it again: drawing the file itself, not the temporary.
    OutputFile kept(script_path, "--plot-script");
    kept.stream() << gnuplot_script(spec, output);
    kept.commit();
  }
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
