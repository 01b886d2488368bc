// The fast allocations.json tokenizer emits exactly the events nlohmann's SAX parser does, and
// declines (returns false) whatever it leaves to the full parser.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/store/allocations_json/fast_json_sax.h"

using namespace snapscope;
using json = nlohmann::json;

namespace {

class Recorder : public nlohmann::json_sax<json> {
 public:
  std::vector<std::string> events;
  bool null() override { return add("null"); }
  bool boolean(bool value) override { return add(value ? "true" : "false"); }
  bool number_integer(number_integer_t value) override { return add("i" + std::to_string(value)); }
  bool number_unsigned(number_unsigned_t value) override { return add("u" + std::to_string(value)); }
  bool number_float(number_float_t, const string_t& text) override { return add("f" + text); }
  bool string(string_t& value) override { return add("s" + value); }
  bool binary(binary_t&) override { return add("binary"); }
  bool start_object(std::size_t) override { return add("{"); }
  bool key(string_t& name) override { return add("k" + name); }
  bool end_object() override { return add("}"); }
  bool start_array(std::size_t) override { return add("["); }
  bool end_array() override { return add("]"); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    return false;
  }

 private:
  bool add(std::string event) {
    events.push_back(std::move(event));
    return true;
  }
};

std::vector<std::string> reference_events(const std::string& text) {
  Recorder recorder;
  REQUIRE(json::sax_parse(text, &recorder));
  return recorder.events;
}

}  // namespace

TEST_CASE("fast json sax: same events as nlohmann on valid documents") {
  const std::vector<std::string> documents = {
      R"({"format":"snapscope-allocations","version":1,"devices":[{"device":0,"blocks":{"kind":"blocks",)"
      R"("synthetic_action":false,"elements":{"addr":[139637976727552,18446744073709551615,0],)"
      R"("size":[512,-1,-9223372036854775808]},"initial_stack":[],"actions":{"elem":[null,1,2]}}}]})",
      " \n\t[ 1 , -0 , 0 , [ ] , { } , true , false , null , \"\" , {\"a\" : [ [ 3 ] ] } ] \r\n", "42",
      "\"text with spaces / and utf-8 \xc3\xa9\""};
  for (const std::string& text : documents) {
    INFO(text);
    Recorder fast;
    CHECK(fast_sax_parse(text, fast));
    CHECK(fast.events == reference_events(text));
  }
}

TEST_CASE("fast json sax: declines what the full parser must handle") {
  const std::vector<std::string> declined = {"1.5",
                                             "[1e3]",
                                             "18446744073709551616",
                                             "-9223372036854775809",
                                             "\"esc\\\"aped\"",
                                             "[01]",
                                             "[1,]",
                                             "{\"a\":1,}",
                                             "[1] x",
                                             "",
                                             "[",
                                             "{\"a\" 1}",
                                             "tru",
                                             "[\"a\nb\"]",
                                             "-",
                                             "[-a]"};
  for (const std::string& text : declined) {
    INFO(text);
    Recorder fast;
    CHECK_FALSE(fast_sax_parse(text, fast));
  }
}
