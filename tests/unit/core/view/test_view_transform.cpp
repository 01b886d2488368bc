#include <doctest/doctest.h>

#include "core/view/view_transform.h"

using namespace snapscope;

namespace {
ViewTransform make_view() {
  ViewTransform view;
  view.set_viewport(1000, 500);
  view.set_bounds({0, 1000, 0, 5000});
  view.fit();
  return view;
}
}  // namespace

TEST_CASE("screen and data coordinates round-trip, y up") {
  const ViewTransform view = make_view();
  CHECK(view.to_screen_x(250) == doctest::Approx(250));
  CHECK(view.to_screen_y(0) == doctest::Approx(500));
  CHECK(view.to_screen_y(5000) == doctest::Approx(0));
  CHECK(view.to_data_y(view.to_screen_y(1234)) == doctest::Approx(1234));
  CHECK(view.to_data_x(view.to_screen_x(777)) == doctest::Approx(777));
}

TEST_CASE("zooming keeps the point under the cursor fixed") {
  ViewTransform view = make_view();
  const double before = view.to_data_x(300);
  view.zoom_x_at(300, 4);
  CHECK(view.visible().width() == doctest::Approx(250));
  CHECK(view.to_data_x(300) == doctest::Approx(before));
  const double y_before = view.to_data_y(100);
  view.zoom_y_at(100, 2);
  CHECK(view.visible().height() == doctest::Approx(2500));
  CHECK(view.to_data_y(100) == doctest::Approx(y_before));
}

TEST_CASE("zoom out and pan are clamped to the data bounds") {
  ViewTransform view = make_view();
  view.zoom_x_at(500, 0.1);
  CHECK(view.visible() == DataRect{0, 1000, 0, 5000});
  view.zoom_x_at(0, 10);
  view.pan_pixels(-100000, 0);  // drag far left: shows later steps, stops at the end
  CHECK(view.visible().x1 == doctest::Approx(1000));
  CHECK(view.visible().width() == doctest::Approx(100));
  view.pan_pixels(500, 0);  // half a viewport back
  CHECK(view.visible().x0 == doctest::Approx(850));
}

TEST_CASE("minimum span and box zoom") {
  ViewTransform view = make_view();
  view.zoom_x_at(0, 1e12);
  CHECK(view.visible().width() == doctest::Approx(ViewTransform::kMinSpanX));
  view.fit();
  view.zoom_to_pixels(600, 400, 100, 100);  // corners in any order
  CHECK(view.visible().x0 == doctest::Approx(100));
  CHECK(view.visible().x1 == doctest::Approx(600));
  CHECK(view.visible().y0 == doctest::Approx(1000));
  CHECK(view.visible().y1 == doctest::Approx(4000));
}

TEST_CASE("degenerate bounds still give a usable view") {
  ViewTransform view;
  view.set_viewport(0, 0);
  view.set_bounds({0, 0, 0, 0});
  view.fit();
  CHECK(view.visible().width() > 0);
  CHECK(view.visible().height() > 0);
  CHECK(view.viewport_width() >= 1);
}
