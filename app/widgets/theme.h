// The viewer's colours and sizes, in one place. The chart's palette and outline colours are plain
// data in core/util/chart_palette.h (the converter's SVG export draws with them too); the theme
// turns them into ImGui colours and holds everything the panels around the chart draw with.
#pragma once

#include <imgui.h>

#include <cstdint>

#include "core/util/chart_palette.h"

namespace snapscope::theme {

// ---- chart palette -> ImGui
ImU32 to_imgui(const Rgba& color);
ImU32 to_imgui(const Rgba& color, float alpha);
ImU32 from_rgb(uint32_t rgb);  // 0xRRGGBB, opaque
// A legend's colour square, one text line tall, at the cursor (then SameLine for its label).
void color_swatch(const Rgba& color);

// ---- text
inline const ImVec4 kErrorText{1, 0.45f, 0.45f, 1};            // a failed load, query or history
inline const ImVec4 kAlertText{1, 0.4f, 0.4f, 1};              // OOM events, pending frees, file errors
inline const ImVec4 kPendingFreeText{0.92f, 0.16f, 0.16f, 1};  // legend of kPendingFree
inline const ImVec4 kWasteText{1, 0.47f, 0.47f, 0.8f};         // legend of kWaste
inline const ImVec4 kSearchStatusText{1, 0.5f, 0.4f, 1};
inline const ImVec4 kWarningText{1, 0.7f, 0.2f, 1};

// ---- the chart's frame and overlays
inline constexpr ImU32 kAxis = IM_COL32(150, 150, 160, 255);
inline constexpr ImU32 kGrid = IM_COL32(255, 255, 255, 28);
inline constexpr ImU32 kZoomBox = IM_COL32(255, 255, 255, 200);
inline constexpr ImU32 kHalo = IM_COL32(0, 0, 0, 255);  // under every outline, so it shows on any colour
inline constexpr ImU32 kCursor = IM_COL32(255, 255, 255, 230);
inline constexpr ImU32 kSearchTick = IM_COL32(0, 255, 64, 255);     // kSearchOutline
inline constexpr ImU32 kGroupTick = IM_COL32(255, 0, 255, 255);     // kGroupOutline
inline constexpr ImU32 kNoteMarker = IM_COL32(255, 230, 120, 255);  // annotate events, at the top edge
inline constexpr ImU32 kLaneText = IM_COL32(255, 255, 255, 255);
inline constexpr float kLaneAlpha = 0.75f;  // annotation lanes: the palette, slightly see-through

// ---- minimap
inline constexpr ImU32 kMinimapBackground = IM_COL32(25, 25, 30, 255);
inline constexpr ImU32 kMinimapAllocated = IM_COL32(70, 140, 220, 255);
inline constexpr ImU32 kMinimapReserved = IM_COL32(230, 150, 60, 160);
inline constexpr ImU32 kMinimapWindow = IM_COL32(255, 255, 255, 24);
inline constexpr ImU32 kMinimapWindowBorder = IM_COL32(255, 255, 255, 200);

// ---- reserved / fragmentation strip
inline constexpr ImU32 kStripReservedFill = IM_COL32(70, 110, 160, 150);
inline constexpr ImU32 kStripAllocatedLine = IM_COL32(120, 220, 140, 255);
inline constexpr ImU32 kStripFragmentationLine = IM_COL32(255, 170, 60, 255);
inline constexpr ImU32 kStripOom = IM_COL32(255, 60, 60, 230);
inline constexpr ImU32 kStripCursor = IM_COL32(255, 255, 255, 160);
inline constexpr ImU32 kStripFrame = IM_COL32(150, 150, 160, 255);

// ---- allocator state
inline constexpr ImU32 kSegmentFill = IM_COL32(38, 38, 46, 255);  // free space inside a segment
inline constexpr ImU32 kSegmentEdge = IM_COL32(170, 170, 180, 255);
inline constexpr ImU32 kPendingFree = IM_COL32(235, 40, 40, 255);
inline constexpr ImU32 kWaste = IM_COL32(255, 120, 120, 150);
inline constexpr ImU32 kBlockEdge = IM_COL32(20, 20, 24, 255);
inline constexpr ImU32 kBlockColors[] = {IM_COL32(31, 119, 180, 255), IM_COL32(255, 150, 40, 255),
                                         IM_COL32(44, 160, 44, 255),  IM_COL32(148, 103, 189, 255),
                                         IM_COL32(140, 86, 75, 255),  IM_COL32(227, 119, 194, 255),
                                         IM_COL32(188, 189, 34, 255), IM_COL32(23, 190, 207, 255)};

// ---- call tree
inline constexpr ImU32 kTreeMatch = IM_COL32(255, 220, 60, 255);

// ---- window layout (pixels, or shares of a pane)
inline constexpr float kStatusHeight = 28;
inline constexpr float kInspectorWidth = 440;
inline constexpr float kInspectorMaxShare = 0.3f;  // of the window's width: the chart keeps the rest
inline constexpr float kMinimapHeight = 64;
inline constexpr float kUsageStripHeight = 52;
inline constexpr float kAllocatorPaneShare = 0.45f;  // of the analysis pane's width, at start
inline constexpr float kAnalysisPaneShare = 0.4f;    // of the workspace height, below the chart, at start
inline constexpr float kSplitterThickness = 6;
inline constexpr float kMinPane = 120;  // no splitter drags a pane smaller than this
inline constexpr float kLaneHeight = 16;

}  // namespace snapscope::theme
