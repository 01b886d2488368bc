// Python-like rendering of unpickled values, for tests and error messages.
#include <charconv>
#include <string>

#include "core/pickle/unpickler.h"

namespace snapscope::pickle {

namespace {

constexpr int kMaxReprDepth = 1100;

void quote(std::string& out, std::string_view text, bool as_bytes) {
  out += as_bytes ? "b'" : "'";
  for (char c : text) {
    auto u = static_cast<uint8_t>(c);
    if (c == '\'' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20 || (as_bytes && u >= 0x7f)) {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[u >> 4];
      out += kHex[u & 15];
    } else {
      out += c;
    }
  }
  out += '\'';
}

void append_number(std::string& out, double d) {
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, d);
  out.append(buf, end);
}

void render(std::string& out, Value v, const Unpickler& up, int depth, size_t limit);

void render_items(std::string& out, const Container& c, const Unpickler& up, int depth, size_t limit) {
  for (size_t i = 0; i < c.items.size() && out.size() <= limit; ++i) {
    if (i > 0) out += (c.kind == ContainerKind::Dict && i % 2 == 1) ? ": " : ", ";
    render(out, c.items[i], up, depth + 1, limit);
  }
}

void render_container(std::string& out, const Container& c, const Unpickler& up, int depth, size_t limit) {
  switch (c.kind) {
    case ContainerKind::List:
      out += '[';
      render_items(out, c, up, depth, limit);
      out += ']';
      return;
    case ContainerKind::Dict:
      out += '{';
      render_items(out, c, up, depth, limit);
      out += '}';
      return;
    case ContainerKind::Tuple:
      out += '(';
      render_items(out, c, up, depth, limit);
      out += c.items.size() == 1 ? ",)" : ")";
      return;
    case ContainerKind::Set:
    case ContainerKind::FrozenSet:
      if (c.kind == ContainerKind::FrozenSet) out += "frozenset(";
      if (c.items.empty()) {
        out += c.kind == ContainerKind::Set ? "set()" : ")";
        return;
      }
      out += '{';
      render_items(out, c, up, depth, limit);
      out += c.kind == ContainerKind::FrozenSet ? "})" : "}";
      return;
  }
}

void render(std::string& out, Value v, const Unpickler& up, int depth, size_t limit) {
  if (depth > kMaxReprDepth) {
    out += "...";
    return;
  }
  if (out.size() > limit) return;
  switch (v.kind) {
    case Kind::None:
      out += "None";
      return;
    case Kind::Bool:
      out += v.i ? "True" : "False";
      return;
    case Kind::Int:
      out += std::to_string(v.i);
      return;
    case Kind::UInt:
      out += std::to_string(v.u);
      return;
    case Kind::BigInt:
      out += "~";
      append_number(out, v.d);
      return;
    case Kind::Float:
      append_number(out, v.d);
      return;
    case Kind::String:
      quote(out, up.string(v), false);
      return;
    case Kind::Bytes:
      quote(out, up.bytes(v), true);
      return;
    case Kind::Container:
      render_container(out, up.container(v), up, depth, limit);
      return;
    case Kind::EmptyList:
      out += "[]";
      return;
    case Kind::Frame:
      out += "<frame " + std::to_string(v.id) + ">";
      return;
    case Kind::Stack:
      out += "<stack " + std::to_string(v.id) + ">";
      return;
    case Kind::Event:
      out += "<event " + std::to_string(v.id) + ">";
      return;
    case Kind::EventRun:
      out += "<events " + std::to_string(v.id) + "+" + std::to_string(v.aux) + ">";
      return;
    case Kind::External:
      out += "<memo " + std::to_string(v.id) + ">";
      return;
  }
}

}  // namespace

std::string repr(Value value, const Unpickler& unpickler, size_t max_bytes) {
  std::string out;
  render(out, value, unpickler, 0, max_bytes);
  if (out.size() > max_bytes) {
    out.resize(max_bytes);
    out += "...";
  }
  return out;
}

}  // namespace snapscope::pickle
