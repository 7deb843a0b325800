#include "cli/plot.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include "cli/cli_error.hpp"
#include "cli/commands.hpp"
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
  auto script_path = std::filesystem::temp_directory_path() / ("hcemu-plot-" + std::to_string(::getpid()) + ".gp");
  {
    std::ofstream script(script_path);
    if (!script) throw Error("cannot write the gnuplot script " + script_path.string());
    script << gnuplot_script(spec, output);
  }
  std::string command = "gnuplot " + quoted(script_path.string()) + " 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) throw Error("cannot start gnuplot");
  std::string messages;
  char buffer[256];
  while (std::fgets(buffer, sizeof buffer, pipe)) messages += buffer;
  int status = ::pclose(pipe);
  std::filesystem::remove(script_path);
  if (status != 0) {
    if (messages.find("not found") != std::string::npos)
      throw Error("gnuplot is not installed (apt-get install gnuplot-nox); the plot was not drawn");
    throw Error("gnuplot failed drawing " + output + ": " + messages);
  }
}

}  // namespace hcemu::cli
