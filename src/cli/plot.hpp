#pragma once
// Plots drawn with gnuplot in the manner of Nicol & Bokhari (1994) Figures 2 and 3: time against the block size m,
// one curve per algorithm or partition, measured (here: emulated) solid and predicted dashed.
#include <optional>
#include <string>
#include <vector>

namespace hcemu::cli {

struct PlotPoint {
  double m = 0;
  std::optional<double> emulated_us, predicted_us;
};

struct PlotCurve {
  std::string label;
  std::vector<PlotPoint> points;
};

struct PlotSpec {
  std::string title;
  std::string x_label = "block size m (bytes)";
  std::string y_label = "time (ms)";
  std::vector<PlotCurve> curves;
  // Only predicted times (sweep --predicted-only): each curve is drawn solid, with its title.
  bool predicted_only = false;
};

// The gnuplot script that draws `spec` into `output` (.png, .svg or .pdf), reading its data inline.
std::string gnuplot_script(const PlotSpec& spec, const std::string& output);

// Throws UsageError unless `output` ends in .png, .svg or .pdf.
void check_plot_name(const std::string& output);

// Runs gnuplot, drawing into a temporary beside `output` that replaces it once complete; with a `script_path`, also
// writes the script that draws `output`, to edit and run again. Throws UsageError for an output that is not .png,
// .svg or .pdf, Error when gnuplot is missing or fails, and OutputError when a file cannot be written whole
// (output_file.hpp).
void draw_plot(const PlotSpec& spec, const std::string& output, const std::string& script_path = "");

}  // namespace hcemu::cli
