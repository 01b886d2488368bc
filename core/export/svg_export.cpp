// SVG writer over LodBuilder frames (see svg_export.h).
#include "core/export/svg_export.h"

#include <algorithm>
#include <cstdio>

#include "core/export/export_common.h"
#include "core/lod/lod_builder.h"
#include "core/snapshot/snapshot_reader.h"
#include "core/util/chart_palette.h"

namespace snapscope {

namespace {

std::string hex(const SvgColor& color) {
  char text[8];
  std::snprintf(text, sizeof text, "#%02x%02x%02x", color[0], color[1], color[2]);
  return text;
}

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", value);
  std::string out(text);
  while (out.back() == '0') out.pop_back();  // 12.50 -> 12.5, 3.00 -> 3
  if (out.back() == '.') out.pop_back();
  return out == "-0" ? "0" : out;
}

// Data units relative to the view origin -> SVG pixels (y down).
struct PixelMap {
  double sx, sy, height;
  double x(float data) const { return data * sx; }
  double y(float data) const { return height - data * sy; }
};

std::string class_of(const ChartInstance& instance, size_t palette_size) {
  if (instance.color_key == kPoolInactiveKey) return "p";
  if (palette_size == 0) return "a";
  return "k" + std::to_string(instance.color_key % palette_size);
}

void write_shape(BufferedFile& out, const ChartInstance& shape, const PixelMap& map, size_t palette_size) {
  const std::string cls = class_of(shape, palette_size);
  if (shape.bottom0 == shape.bottom1) {
    const double top = map.y(shape.bottom0 + shape.height);
    out << "<rect class=\"" << std::string_view(cls) << "\" x=\"" << std::string_view(number(map.x(shape.x0)))
        << "\" y=\"" << std::string_view(number(top)) << "\" width=\""
        << std::string_view(number(map.x(shape.x1) - map.x(shape.x0))) << "\" height=\""
        << std::string_view(number(map.y(shape.bottom0) - top)) << "\"/>\n";
    return;
  }
  // memory_viz's ramp: the bottom edge slides from bottom0 to bottom1, the height stays.
  const double points[8] = {map.x(shape.x0), map.y(shape.bottom0),
                            map.x(shape.x1), map.y(shape.bottom1),
                            map.x(shape.x1), map.y(shape.bottom1 + shape.height),
                            map.x(shape.x0), map.y(shape.bottom0 + shape.height)};
  out << "<polygon class=\"" << std::string_view(cls) << "\" points=\"";
  for (int i = 0; i < 8; i += 2) {
    out << std::string_view(number(points[i])) << ',' << std::string_view(number(points[i + 1]))
        << (i < 6 ? ' ' : '"');
  }
  out << "/>\n";
}

void write_style(BufferedFile& out, const SvgStyle& style) {
  out << "<style>.a{fill:" << std::string_view(hex(style.aggregate)) << "}";
  out << ".p{fill:" << std::string_view(hex(style.pool_inactive)) << "}";
  for (size_t i = 0; i < style.palette.size(); ++i) {
    out << ".k" << uint64_t{i} << "{fill:" << std::string_view(hex(style.palette[i])) << '}';
  }
  out << "</style>\n";
}

}  // namespace

ChartView svg_view(const Timeline& timeline, const SvgRequest& request) {
  ChartView view;
  view.x0 = request.x0.value_or(0);
  view.x1 = request.x1.value_or(std::max(1.0, double(timeline.timesteps())));
  view.y0 = request.y0.value_or(0);
  const uint64_t peak = request.pools ? request.pools->peak_bytes() : timeline.peak_bytes();
  view.y1 = request.y1.value_or(double(std::max<uint64_t>(peak, 1)) * 1.05);
  view.width = request.width;
  view.height = request.height;
  return view;
}

void write_svg(const ExportInput& input, const SvgRequest& request, const SvgStyle& style,
               const std::string& path) {
  const Timeline* timeline = request.kind == TimelineKind::Blocks ? input.blocks : input.segments;
  if (timeline == nullptr) throw InputError(input.file + ": svg: the segment timeline is not loaded");
  ChartView view = svg_view(*timeline, request);
  if (!(view.x0 < view.x1) || !(view.y0 < view.y1) || view.width <= 0 || view.height <= 0) {
    throw InputError(input.file + ": svg: empty view");
  }
  // On the wall-clock axis the frame is built in time (microseconds), as the viewer draws it.
  const std::shared_ptr<const TimeWarp> warp = request.time_axis ? TimeWarp::build(*timeline) : nullptr;
  if (request.time_axis && !warp)
    throw InputError(input.file + ": svg: --time-axis needs timestamps (time_us)");
  if (warp) {
    view.x0 = warp->axis_at(view.x0);
    view.x1 = warp->axis_at(view.x1);
  }
  LodBuilder builder(*timeline);
  if (request.pools) {
    if (&request.pools->timeline() != timeline)
      throw InputError(input.file + ": svg: the private pools view is of the Active Memory Timeline");
    builder.set_private_pools(request.pools);
  }
  const LodFrame frame = builder.build(view, warp);
  const PixelMap map{view.width / (view.x1 - view.x0), view.height / (view.y1 - view.y0),
                     double(view.height)};
  const size_t palette_size = style.palette.size();
  BufferedFile out(path);
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << int64_t{view.width} << "\" height=\""
      << int64_t{view.height} << "\" viewBox=\"0 0 " << int64_t{view.width} << ' ' << int64_t{view.height}
      << "\" shape-rendering=\"crispEdges\">\n";
  write_style(out, style);
  out << "<rect width=\"100%\" height=\"100%\" fill=\"" << std::string_view(hex(style.background))
      << "\"/>\n";
  for (const ChartInstance& shape : frame.instances) write_shape(out, shape, map, palette_size);
  out << "</svg>\n";
  out.close();
}

}  // namespace snapscope
