// PickleWriter output compared byte for byte with CPython's pickle.dumps (expected bytes were
// produced once with `python3 -c 'import pickle; print(pickle.dumps(obj, protocol=N).hex())'`).
#include <doctest/doctest.h>
#include <zlib.h>

#include <cstdint>
#include <functional>
#include <limits>
#include <sstream>
#include <string>

#include "core/pickle/pickle_writer.h"

using snapscope::PickleWriter;

namespace {

std::string to_hex(const std::string& bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (char c : bytes) {
    out += kHex[static_cast<uint8_t>(c) >> 4];
    out += kHex[static_cast<uint8_t>(c) & 0xf];
  }
  return out;
}

std::string dumps(int protocol, const std::function<void(PickleWriter&)>& body) {
  std::string out;
  PickleWriter w(out, protocol, PickleWriter::Memo::Auto);
  body(w);
  w.finish();
  return out;
}

std::string dumps_hex(int protocol, const std::function<void(PickleWriter&)>& body) {
  return to_hex(dumps(protocol, body));
}

void list_of(PickleWriter& w, const std::function<void(PickleWriter&)>& items) {
  w.begin_list();
  items(w);
  w.end_list();
}

// [0, 255, 256, 65535, 65536, -1, 2**31-1, -2**31, 2**31, -2**31-1, 2**63-1, 2**63, 2**64-1, -2**63]
void write_ints(PickleWriter& w) {
  list_of(w, [](PickleWriter& l) {
    for (int64_t v : {int64_t{0}, int64_t{255}, int64_t{256}, int64_t{65535}, int64_t{65536}, int64_t{-1},
                      int64_t{2147483647}, int64_t{-2147483648LL}, int64_t{2147483648LL},
                      int64_t{-2147483649LL}, std::numeric_limits<int64_t>::max()})
      l.integer(v);
    l.uint(uint64_t{1} << 63);
    l.uint(std::numeric_limits<uint64_t>::max());
    l.integer(std::numeric_limits<int64_t>::min());
  });
}

// [1.5, -0.0, 1e16, 1e-5, 123456.789, 0.1, 1e300, inf]
void write_floats(PickleWriter& w) {
  list_of(w, [](PickleWriter& l) {
    for (double v : {1.5, -0.0, 1e16, 1e-5, 123456.789, 0.1, 1e300, std::numeric_limits<double>::infinity()})
      l.floating(v);
  });
}

// ['', 'a', 'x'*300, 'hé€😀\\\n\r\x1a\x00']
void write_strs(PickleWriter& w) {
  list_of(w, [](PickleWriter& l) {
    l.str("");
    l.str("a");
    l.str(std::string(300, 'x'));
    l.str(std::string_view("h\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\\\n\r\x1a\x00", 15));
  });
}

// {'a': 1, 'b': [1, 2], 'c': [3]}
void write_dict2(PickleWriter& w) {
  w.begin_dict();
  w.str("a");
  w.integer(1);
  w.str("b");
  list_of(w, [](PickleWriter& l) {
    l.integer(1);
    l.integer(2);
  });
  w.str("c");
  list_of(w, [](PickleWriter& l) { l.integer(3); });
  w.end_dict();
}

// [(1,), (1, 2), (1, 2, 3), (1, 2, 3, 4)]
void write_tuples(PickleWriter& w) {
  list_of(w, [](PickleWriter& l) {
    for (int n = 1; n <= 4; ++n) {
      l.begin_tuple();
      for (int i = 1; i <= n; ++i) l.integer(i);
      l.end_tuple();
    }
  });
}

// [{}, [], ()]
void write_empties(PickleWriter& w) {
  list_of(w, [](PickleWriter& l) {
    l.begin_dict();
    l.end_dict();
    l.begin_list();
    l.end_list();
    l.begin_tuple();
    l.end_tuple();
  });
}

// {'k%d' % i: [i, 'v%d' % i, -i * 1000003, i * 0.5] for i in range(5000)}
void write_big_dict(PickleWriter& w) {
  w.begin_dict();
  for (int64_t i = 0; i < 5000; ++i) {
    w.str("k" + std::to_string(i));
    w.begin_list();
    w.integer(i);
    w.str("v" + std::to_string(i));
    w.integer(-i * 1000003);
    w.floating(static_cast<double>(i) * 0.5);
    w.end_list();
  }
  w.end_dict();
}

uint32_t crc32_of(const std::string& bytes) {
  return static_cast<uint32_t>(
      crc32(0L, reinterpret_cast<const Bytef*>(bytes.data()), static_cast<uInt>(bytes.size())));
}

}  // namespace

TEST_CASE("PickleWriter: scalars match CPython for every protocol") {
  auto none = [](PickleWriter& w) { w.none(); };
  auto yes = [](PickleWriter& w) { w.boolean(true); };
  auto no = [](PickleWriter& w) { w.boolean(false); };
  CHECK(dumps_hex(0, none) == "4e2e");
  CHECK(dumps_hex(0, yes) == "4930310a2e");
  CHECK(dumps_hex(1, no) == "4930300a2e");
  CHECK(dumps_hex(2, yes) == "8002882e");
  CHECK(dumps_hex(3, no) == "8003892e");
  CHECK(dumps_hex(4, none) == "80044e2e");
  CHECK(dumps_hex(5, [](PickleWriter& w) { w.integer(1); }) == "80054b012e");  // too small for a FRAME
  CHECK(dumps_hex(4, [](PickleWriter& w) { w.str("ab"); }) == "80049506000000000000008c026162942e");
}

TEST_CASE("PickleWriter: integers use INT/LONG text, BININT* and minimal LONG1 like CPython") {
  CHECK(dumps_hex(0, write_ints) ==
        "286c70300a49300a61493235350a61493235360a614936353533350a614936353533360a61492d310a61493231343734"
        "38333634370a61492d323134373438333634380a614c323134373438333634384c0a614c2d32313437343833363439"
        "4c0a614c393232333337323033363835343737353830374c0a614c393232333337323033363835343737353830384c"
        "0a614c31383434363734343037333730393535313631354c0a614c2d393232333337323033363835343737353830384c"
        "0a612e");
  CHECK(dumps_hex(1, write_ints) ==
        "5d7100284b004bff4d00014dffff4a000001004affffffff4affffff7f4a000000804c323134373438333634384c0a4c"
        "2d323134373438333634394c0a4c393232333337323033363835343737353830374c0a4c3932323333373230333638"
        "35343737353830384c0a4c31383434363734343037333730393535313631354c0a4c2d3932323333373230333638353"
        "4373735383038"
        "4c0a652e");
  CHECK(dumps_hex(2, write_ints) ==
        "80025d7100284b004bff4d00014dffff4a000001004affffffff4affffff7f4a000000808a0500000080008a05ffffff"
        "7fff8a08ffffffffffffff7f8a090000000000000080008a09ffffffffffffffff008a080000000000000080652e");
  CHECK(dumps_hex(4, write_ints) ==
        "8004955b000000000000005d94284b004bff4d00014dffff4a000001004affffffff4affffff7f4a000000808a050000"
        "0080008a05ffffff7fff8a08ffffffffffffff7f8a090000000000000080008a09ffffffffffffffff008a0800000000"
        "00000080652e");
}

TEST_CASE("PickleWriter: floats use Python repr for protocol 0 and BINFLOAT otherwise") {
  CHECK(dumps_hex(0, write_floats) ==
        "286c70300a46312e350a61462d302e300a614631652b31360a614631652d30350a61463132333435362e3738390a61"
        "46302e310a614631652b3330300a6146696e660a612e");
  CHECK(dumps_hex(1, write_floats) ==
        "5d710028473ff8000000000000478000000000000000474341c37937e08000473ee4f8b588e368f14740fe240c9fbe"
        "76c9473fb999999999999a477e37e43c8800759c477ff0000000000000652e");
  CHECK(dumps(0, [](PickleWriter& w) { w.floating(1.0); }) == "F1.0\n.");
  CHECK(dumps(0, [](PickleWriter& w) { w.floating(1e22); }) == "F1e+22\n.");
  CHECK(dumps(0, [](PickleWriter& w) { w.floating(1.5e-7); }) == "F1.5e-07\n.");
  CHECK(dumps(0, [](PickleWriter& w) { w.floating(123456789012345678.0); }) == "F1.2345678901234568e+17\n.");
  CHECK(dumps(0, [](PickleWriter& w) { w.floating(1e15); }) == "F1000000000000000.0\n.");
}

TEST_CASE("PickleWriter: strings per protocol, with raw-unicode-escape for protocol 0") {
  std::string x300;
  for (int i = 0; i < 300; ++i) x300 += "78";
  CHECK(dumps_hex(0, write_strs) == "286c70300a560a70310a6156610a70320a6156" + x300 +
                                        "0a70330a615668e95c75323061635c5530303031663630305c75303035635c753030"
                                        "30615c75303030645c75303031615c75303030300a70340a612e");
  CHECK(dumps_hex(3, write_strs) == "80035d710028580000000071015801000000617102582c010000" + x300 +
                                        "7103580f00000068c3a9e282acf09f98805c0a0d1a007104652e");
  CHECK(dumps_hex(4, write_strs) == "80049550010000000000005d94288c00948c016194582c010000" + x300 +
                                        "948c0f68c3a9e282acf09f98805c0a0d1a0094652e");
}

TEST_CASE("PickleWriter: dicts, lists and tuples use the CPython container opcodes") {
  auto dict1 = [](PickleWriter& w) {
    w.begin_dict();
    w.str("a");
    w.integer(1);
    w.end_dict();
  };
  CHECK(dumps_hex(0, dict1) == "286470300a56610a70310a49310a732e");
  CHECK(dumps_hex(1, dict1) == "7d710058010000006171014b01732e");
  CHECK(dumps_hex(4, dict1) == "8004950a000000000000007d948c0161944b01732e");
  CHECK(dumps_hex(0, write_dict2) ==
        "286470300a56610a70310a49310a7356620a70320a286c70330a49310a6149320a617356630a70340a286c70350a49"
        "330a61732e");
  CHECK(dumps_hex(2, write_dict2) ==
        "80027d71002858010000006171014b0158010000006271025d7103284b014b026558010000006371045d71054b0361752e");
  CHECK(dumps_hex(5, write_dict2) ==
        "80059520000000000000007d94288c0161944b018c0162945d94284b014b02658c0163945d944b0361752e");
  CHECK(dumps_hex(0, write_empties) == "286c70300a286470310a61286c70320a612874612e");
  CHECK(dumps_hex(1, write_empties) == "5d7100287d71015d710229652e");
  CHECK(dumps_hex(4, write_empties) == "8004950a000000000000005d94287d945d9429652e");
  CHECK(dumps_hex(0, write_tuples) ==
        "286c70300a2849310a7470310a612849310a49320a7470320a612849310a49320a49330a7470330a612849310a4932"
        "0a49330a49340a7470340a612e");
  CHECK(dumps_hex(1, write_tuples) ==
        "5d710028284b01747101284b014b02747102284b014b024b03747103284b014b024b034b04747104652e");
  CHECK(dumps_hex(2, write_tuples) ==
        "80025d7100284b018571014b014b028671024b014b024b03877103284b014b024b034b04747104652e");
  CHECK(dumps_hex(4, write_tuples) ==
        "80049522000000000000005d94284b0185944b014b0286944b014b024b038794284b014b024b034b047494652e");
}

TEST_CASE("PickleWriter: batches of 1000 items, with CPython's trailing empty dict batch") {
  const std::string dict1000 = dumps(2, [](PickleWriter& w) {
    w.begin_dict();
    for (int i = 0; i < 1000; ++i) {
      w.integer(i);
      w.integer(i);
    }
    w.end_dict();
  });
  CHECK(to_hex(dict1000.substr(dict1000.size() - 6)) == "e7037528752e");
  const std::string list1000 = dumps(2, [](PickleWriter& w) {
    list_of(w, [](PickleWriter& l) {
      for (int i = 0; i < 1000; ++i) l.integer(i);
    });
  });
  CHECK(to_hex(list1000.substr(list1000.size() - 6)) == "034de703652e");
  const std::string list1001 = dumps(2, [](PickleWriter& w) {
    list_of(w, [](PickleWriter& l) {
      for (int i = 0; i < 1001; ++i) l.integer(i);
    });
  });
  CHECK(to_hex(list1001.substr(list1001.size() - 8)) == "0365284de803652e");
}

TEST_CASE("PickleWriter: a 188 KB object matches CPython, frames included") {
  // (length, zlib.crc32) of pickle.dumps(big, protocol) for protocols 0..5.
  const std::pair<size_t, uint32_t> expected[] = {{330085, 3576490277u}, {297440, 615484243u},
                                                  {277478, 1456466u},    {277478, 51775044u},
                                                  {188269, 2379719667u}, {188269, 2270677151u}};
  for (int protocol = 0; protocol <= 5; ++protocol) {
    CAPTURE(protocol);
    const std::string out = dumps(protocol, write_big_dict);
    CHECK(out.size() == expected[protocol].first);
    CHECK(crc32_of(out) == expected[protocol].second);
  }
}

TEST_CASE("PickleWriter: large strings bypass framing; ostream sink gives the same bytes") {
  auto body = [](PickleWriter& w) {
    list_of(w, [](PickleWriter& l) {
      l.str("ab");
      l.str(std::string(70000, 'y'));
      l.str("cd");
    });
  };
  const std::string out = dumps(4, body);
  CHECK(out.size() == 70041);
  CHECK(crc32_of(out) == 2888550609u);
  CHECK(to_hex(out.substr(0, 20)) == "80049508000000000000005d94288c0261629458");

  std::ostringstream stream;
  PickleWriter w(stream, 4, PickleWriter::Memo::Auto);
  body(w);
  w.finish();
  CHECK(stream.str() == out);
  CHECK(w.bytes_written() == out.size());
}

TEST_CASE("PickleWriter: memo references use MEMOIZE/BINGET, BINPUT and PUT/GET") {
  // s = 'shared'; [s, s, {'k': s}] and [s, s]
  CHECK(dumps_hex(4, [](PickleWriter& w) {
          w.begin_list();
          w.str("shared");
          const uint32_t s = w.last_memo();
          w.get(s);
          w.begin_dict();
          w.str("k");
          w.get(s);
          w.end_dict();
          w.end_list();
        }) == "80049519000000000000005d94288c067368617265649468017d948c016b94680173652e");
  auto pair = [](PickleWriter& w) {
    w.begin_list();
    w.str("shared");
    w.get(w.last_memo());
    w.end_list();
  };
  CHECK(dumps_hex(2, pair) == "80025d710028580600000073686172656471016801652e");
  CHECK(dumps_hex(0, pair) == "286c70300a567368617265640a70310a6167310a612e");

  std::string manual;
  PickleWriter w(manual, 3);  // Memo::Manual: nothing memoized unless asked
  w.begin_list();
  for (int i = 0; i < 300; ++i) {
    w.str("s");
    CHECK(w.memoize() == static_cast<uint32_t>(i));
  }
  w.get(299);
  w.end_list();
  w.finish();
  CHECK(to_hex(manual.substr(manual.size() - 7)) == "6a2b010000652e");  // LONG_BINGET 299, APPENDS, STOP
  CHECK(to_hex(manual.substr(manual.size() - 12, 5)) == "722b010000");  // LONG_BINPUT 299
}

TEST_CASE("PickleWriter: bytes, legacy strings and raw opcodes") {
  auto both = [](PickleWriter& w) {
    list_of(w, [](PickleWriter& l) {
      l.bytes("");
      l.bytes(std::string_view("ab\xff", 3));
    });
  };
  CHECK(dumps_hex(3, both) == "80035d7100284300710143036162ff7102652e");
  CHECK(dumps_hex(4, both) == "8004950e000000000000005d942843009443036162ff94652e");
  CHECK_THROWS_AS(dumps(2, both), std::invalid_argument);

  CHECK(dumps(0, [](PickleWriter& w) { w.legacy_string("it's\n"); }) == "S'it\\'s\\n'\np0\n.");
  CHECK(to_hex(dumps(2, [](PickleWriter& w) { w.legacy_string("ab"); })) == "80025502616271002e");

  std::string odd;
  PickleWriter w(odd, 2);
  w.raw_opcode('c', "os\nsystem\n");
  w.finish();
  CHECK(odd == std::string("\x80\x02"
                           "cos\nsystem\n.",
                           14));
}

TEST_CASE("PickleWriter: misuse is reported, not silently written") {
  std::string out;
  CHECK_THROWS_AS(PickleWriter(out, 6), std::invalid_argument);
  PickleWriter w(out, 4);
  CHECK_THROWS_AS(w.get(0), std::invalid_argument);
  w.begin_dict();
  w.str("key");
  CHECK_THROWS_AS(w.end_dict(), std::logic_error);
  CHECK_THROWS_AS(w.end_list(), std::logic_error);
  CHECK_THROWS_AS(w.finish(), std::logic_error);
}
