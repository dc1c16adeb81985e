//! Behaviour across formats: streaming gives what whole-text parsing gives however the text is
//! split, no input panics, and errors point at the text they came from.

use super::{parse, TextFormat, TextParse, TextStream};
use serde_json::{json, Value};
use std::collections::HashMap;

/// A small deterministic PRNG (xorshift64*), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn tools() -> HashMap<String, Value> {
    HashMap::from([
        (
            "get_weather".to_owned(),
            json!({"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer"}}}),
        ),
        (
            "get_time".to_owned(),
            json!({"type": "object", "properties": {"tz": {"type": "string"}}}),
        ),
        ("f".to_owned(), json!({"type": "object"})),
    ])
}

/// Model outputs in every format, whole, broken and cut off, with prose around them.
const SAMPLES: &[&str] = &[
    "Just prose, with <b>tags</b>, [links](http://x.y), {braces}, and `code`.",
    "I'll check.\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 3}}\n</tool_call>\n<tool_call>\n{\"name\": \"get_time\", \"arguments\": {\"tz\": \"CET\"}}\n</tool_call>\nDone.",
    "<tool_call>{\"name\": \"get_weather\", \"arguments\": \"{\\\"city\\\": \\\"Oslo\\\"}\"}</tool_call>",
    "<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Par",
    "<tool_call>\n{'name': 'f', 'arguments': {'a': True,}}\n</tool_call> and <tool_call>{oops}</tool_call> then <tool_call>{\"name\": \"f\", \"arguments\": {}}",
    "Sure!\n<tool_call>\n<function=get_weather>\n<parameter=city>\nNew York\n</parameter>\n<parameter=days>\n2\n</parameter>\n</function>\n</tool_call>",
    "<function=write>\n<parameter=code>\nif a < b { print(\"}\") }\n</parameter>\n</function> after",
    "<tool_call>\n<function=get_weather>\n<parameter=city>\nBer",
    "Let me check.[TOOL_CALLS] [{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}, {\"name\": \"get_time\", \"arguments\": {}}]",
    "[TOOL_CALLS]get_weather[ARGS]{\"city\": \"Rome\"}[TOOL_CALLS]get_time{\"tz\": \"UTC\"}",
    "[TOOL_CALLS]get_weather[CALL_ID]abc123xyz[ARGS]{\"city\": \"Rome\", \"days\": 1",
    "[TOOL_CALLS][{\"name\": \"f\", \"arguments\": {}}, oops, {\"name\": \"get_time\"",
    "<|python_tag|>{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Lima\"}}; {\"name\": \"get_time\", \"parameters\": {}}",
    "{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Lima\"}}\n{\"name\": \"f\", \"parameters\": {}}",
    "  {\"name\": \"get_weather\", \"parameters\": {\"city\": \"Li",
    "<|python_tag|>brave_search.call(query=\"rust (language)\")",
    "[get_weather(city='Paris', days=3), get_time(tz=\"CET\")]",
    "Here: [get_weather(city=\"a]b\", days=[1, {'x': (2, 3)}]), f()] and more",
    "[get_weather(city='Par",
    "<|python_start|>[f(a=1, b=\"x\")]<|python_end|>",
    "{\"tool_calls\": [{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Quito\"}, \"id\": \"call_aaaa\"}]}",
    "Ok. {\"tool_call\": {\"name\": \"f\", \"arguments\": {\"x\": [1, 2, 3]}}} done",
    "{\"tool_calls\": [{\"name\": \"f\", \"arguments\": {}}, {\"name\": \"get_time\", \"arguments\": {\"tz\": \"",
    "{\"response\": \"Hi there\"}",
    "Calling:\n```json\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Cairo\"}}\n```\nWait.",
    "```json\n[{\"name\": \"f\", \"arguments\": {}}, {\"name\": \"get_time\", \"arguments\": {\"tz\": \"X\"}}]\n```",
    "```python\nprint('[TOOL_CALLS]')\n```",
    "```json\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Cai",
    "Mixed: <tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call> [TOOL_CALLS]f{} [f()] ```json\n{\"name\": \"f\", \"arguments\": {}}\n``` {\"tool_call\": {\"name\": \"f\"}}",
    "Unicode 日本語 🦀 <tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Zürich 🏔\"}}</tool_call> é",
    "<tool_call>\r\n{\"name\": \"f\", \"arguments\": {}}\r\n</tool_call>\r\nNext line",
    "< tool_call> [TOOL CALLS] <|python|> ``` `` ` [ ] { } <",
    "Both:\n<tool_calls>[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\"}}, {\"name\": \"get_time\", \"arguments\": {}}]</tool_calls>\nok",
    "<tool_calls>[{\"name\": \"f\", \"arguments\": {\"s\": \"</tool_calls>\"}}, {oops}]</tool_calls> <tool_calls>[{\"name\": \"get_ti",
    "<|tool_call|>[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Lyon\"}}] then <|tool_call|>{\"name\": \"f\"",
    "<function_call> {\"name\": \"get_weather\", \"arguments\": {\"city\": \"Bern\"}}\n<function_call> {\"name\": \"get_time\", \"arguments\": {\"tz\": \"CET\"}}",
    "Look: <|action_start|><|plugin|>\n{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Kyiv\"}}<|action_end|> and <|action_start|><|plugin|>\n{\"name\": \"f\", \"parameters\": {",
    "<longcat_tool_call>{\"name\": \"get_time\", \"arguments\": {\"tz\": \"UTC\"}}</longcat_tool_call><longcat_tool_call>nope</longcat_tool_call>",
    "<TOOLCALL>[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Rio\", \"days\": 2}}]</TOOLCALL> <TOOLCALL> <|tool_call <tool_calls <longcat_",    "<|channel|>analysis<|message|>Need <tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call> weather.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{\"city\": \"Paris\", \"days\": 2}<|call|>",
    "<|start|>assistant<|channel|>commentary<|message|>Checking.<|end|><|start|>assistant to=functions.get_time<|channel|>commentary json<|message|>{\"tz\": \"UTC\"}<|call|><|start|>assistant<|channel|>final<|message|>Done.<|return|>",
    "<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{\"city\": \"Pa",
    "<|start|>assistant<|channel|>commentary to=python <|constrain|>code<|message|>print(1)<|call|> <|channel|>commentary to=functions.f<|message|>{oops}<|call|> <|start|>assistant<|chan",
    "Sure. <|tool_call>call:get_weather{city:<|\"|>Paris, France<|\"|>,days:3}<tool_call|><|tool_call>call:f{a:[<|\"|>x]<|\"|>,1.5],b:{c:null}}<tool_call|>",
    "<|channel>thought\n<|tool_call>call:f{}<tool_call|><channel|><|tool_call>call:get_time{tz<|\"|>UTC<|\"|>}<tool_call|> <|tool_call>call:get_weather{city:<|\"|>Os",
    "<start_function_call>call:get_weather{city:<escape>Lyon<escape>,days:<escape>2<escape>}<end_function_call> <start_function_call>call:f{a:<escape>x",
    "<|tool_call_start|>[get_weather(city='Paris', days=3), get_time(tz=\"UTC\")]<|tool_call_end|>\nChecking. <|tool_call_start|>[f(a=",
    "<function_calls>get_weather(city='Rome', days=null)\nbroken line(\nget_time(tz=\"CET\")</function_calls> then <function_calls>f(a=[1,",
    "<function=get_weather>{\"city\": \"Bonn\"}</function>\n<function=f>\n<parameter=x>\n1\n</parameter>\n</function> <function=get_time>{\"tz\": \"U",
    "I will. <|tools_prefix|>[{\"get_weather\": {\"city\": \"Bern\"}}, {\"a\": 1, \"b\": 2}, {\"get_time\": {}}]<|tools_suffix|> <|tools_prefix|>[{\"f\": {\"x\": ",
    "<|START_THINKING|>Try <|START_ACTION|>[]<|END_ACTION|><|END_THINKING|><|START_ACTION|>[\n    {\"tool_call_id\": \"0\", \"tool_name\": \"get_weather\", \"parameters\": {\"city\": \"Rome\"}}\n]<|END_ACTION|><|START_RESPONSE|>Hi<|END_RESPONSE|> <|START_ACTION|>[{\"tool_name\": \"f\", \"para",
    "<|tool_call|> sorry, no tool fits. <function_call> none <tool_call> [{\"name\": \"f\", \"arguments\": {}}]",
    "<TOOLCALL>[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Rio\", \"days\": 2}}]</TOOLCALL> <TOOLCALL> <|tool_call <tool_calls <longcat_",
    "Let me look.\n<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n<arg_key>days</arg_key>\n<arg_value>3</arg_value>\n</tool_call>\n<tool_call>get_time</tool_call>",
    "<tool_call>get_weather<arg_key>city</arg_key></tool_call> then <tool_call>f<arg_key>x</arg_key><arg_value>a <tool_call> b</arg_value></tool_call><tool_call>get_time<arg_key>tz</arg_key><arg_value>CE",
    "<tool_calls>\n<tool_call>get_weather<tool_sep>\n<arg_key>city</arg_key>\n<arg_value>Oslo</arg_value>\n</tool_call>\n<tool_call>get_time</tool_call>\n</tool_calls> ok",
    "<tool_calls><tool_call>get_time<arg_key>tz</arg_key>oops</tool_call>junk<tool_call>get_weather<arg_key>city</arg_key><arg_value>Ri",
    "<ifm|tool_calls><ifm|tool_call>get_weather<ifm|arg_key>days</ifm|arg_key><ifm|arg_type>integer</ifm|arg_type><ifm|arg_value>2</ifm|arg_value></ifm|tool_call>\n<ifm|tool_call>{\"name\": \"get_time\", \"arguments\": {\"tz\": \"UTC\"}}</ifm|tool_call></ifm|tool_calls>",
    "<ifm|tool_calls><ifm|tool_call>get_time<ifm|arg_key>tz</ifm|arg_key><ifm|arg_val",
    "Sure. <minimax:tool_call>\n<invoke name=\"get_weather\">\n<parameter name=\"city\"> Lima </parameter>\n<parameter name=\"days\">2</parameter>\n</invoke>\n<invoke name='get_time'></invoke>\n</minimax:tool_call>",
    "<minimax:tool_call><invoke><parameter name=\"x\">1</parameter></invoke><invoke name=\"f\"><parameter name=\"a\">b</param",
    "Head\n<function name=\"get_weather\"><param name=\"city\"><![CDATA[a < b]]></param><param name=\"days\">4</param></function>\nTail",
    "<function name=\"f\"><param>x</param></function> <functionname=\"get_time\"><paramname=\"tz\">CE",
    "<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"get_weather\"><steptml:parameter name=\"city\"> Kyiv </steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>",
    "<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"get_time\"><steptml:parameter name=\"tz\">U",
    "<seed:think>hmm <seed:tool_call></seed:think>\n<seed:tool_call>\n<function=get_weather>\n<parameter=city>Rome</parameter>\n</function>\n</seed:tool_call>",
    "<seed:tool_call><function=get_time><parameter=tz>UTC</parameter></function>oops</seed:tool_call> <seed:tool_call><function=get_weath",
    "<|plamo:begin_tool_requests:plamo|><|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>get_time<|plamo:end_tool_name:plamo|><|plamo:begin_tool_arguments:plamo|><|plamo:constrain|>json<|plamo:msg|>{\"tz\": \"UTC\"}<|plamo:end_tool_arguments:plamo|><|plamo:end_tool_request:plamo|><|plamo:end_tool_requests:plamo|>",
    "<|plamo:begin_tool_requests:plamo|><|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>f<|plamo:end_tool_name:plamo|><|plamo:begin_tool_arguments:plamo|><|plamo:constrain|>json<|plamo:msg|>{\"a\": [1, ",
    "Let me check.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{\"city\": \"Tokyo\", \"days\": 2}\n```<｜tool▁call▁end｜>\n<｜tool▁call▁begin｜>function<｜tool▁sep｜>get_time\n```json\n{\"tz\": \"JST\"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>\nDone.",
    "ok<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{\"city\": \"<｜tool▁call▁end｜>\"}<｜tool▁call▁end｜><｜tool▁call▁begin｜>f<｜tool▁sep｜><｜tool▁call▁end｜><｜tool▁call▁begin｜>get_time<｜tool▁sep｜>{\"tz\": \"U",
    "<｜tool▁calls▁begin｜>f<｜tool▁sep｜>{}<｜tool▁calls▁end｜> <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>f{}<｜tool▁call▁end｜> <｜tool▁calls▁end｜> <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>f\n```json\n{\"a\": 1}}\n```<｜tool▁call▁end｜>",
    "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"get_weather\">\n<｜DSML｜parameter name=\"city\" string=\"true\">杭州</｜DSML｜parameter>\n<｜DSML｜parameter name=\"days\" string=\"false\">2</｜DSML｜parameter>\n</｜DSML｜invoke>\n<｜DSML｜invoke name=\"f\"><｜DSML｜parameter name=\"x\" string=\"false\">{\"a\": [1</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls> tail",
    "<｜DSML｜tool_calls><｜DSML｜invoke>x</｜DSML｜invoke><｜DSML｜invoke name=\"get_time\"><｜DSML｜parameter name=\"tz\" string=\"true\">UT",
    "<｜DSML｜ calls>\n<｜DSML｜ invoke name=\"get_weather\">\n<｜DSML｜ parameter name=\"city\" string=\"true\">Oslo</｜DSML｜ parameter>\n</｜DSML｜ invoke>\n</｜DSML｜ calls> <｜DSML｜ calls><｜DSML｜ invoke name=\"f\">",
    "Checking. <|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0 <|tool_call_argument_begin|>{\"city\": \"Beijing\"}<|tool_call_end|><|tool_call_begin|>0<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_call_begin|>functions.get_time:2<|tool_call_argument_begin|>{\"tz\": \"<|tool_call_end|><|tool_calls_section_end|>",
    "<|open|>response<|sep|>On it.<|close|>response<|sep|><|open|>tools<|sep|><|open|>call tool=\"get_weather\" index=\"1\"<|sep|><|open|>argument key=\"city\" type=\"string\"<|sep|>Paris <b><|close|>argument<|sep|><|open|>argument key=\"days\" type=\"number\"<|sep|>3<|close|>argument<|sep|><|close|>call<|sep|><|open|>call tool=\"f\" index=\"2\"<|sep|><|open|>argument key=\"x\" type=\"object\"<|sep|>{\"a\":<|close|>tools<|sep|><|close|>message<|sep|>",
    "<|open|>tools<|sep|><|open|>call index=\"1\"<|sep|><|close|>call<|sep|><|open|>call tool=\"get_time\" index=\"2\"<|sep|><|open|>argument key=\"tz\"<|sep|>CE",
    "<｜tool▁calls <｜DSML｜ <｜DSML｜invoke <|tool_calls_section <|tool_call_begin|> <|open|>too <|close|>resp <|open|>call",
    "[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 3}}, {\"name\": \"get_time\", \"arguments\": {\"tz\": \"CET\"}}]\nDone.",
    "Sure. [{\"name\": \"get_time\", \"arguments\": {}}, {oops}, 7, {\"name\": \"f\", \"arguments\": {\"a\": [1]}}] and [{\"id\": 1}] [{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Ro",
    "Let me check.\nfunctools[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"a]b\"}}, {oops}, {\"name\": \"get_time\", \"arguments\": {}}]\nMore? functools[int] functools[{\"name\": \"f\", \"arguments\": {\"a\": \"x",
    " functools[] functools[{\"a\": 1}] functool functools",
    "ok<dots_function_call>\n<invoke name=\"get_weather\">\n<parameter name=\"city\"> Paris </parameter>\n<parameter name=\"days\">3</parameter>\n</invoke>\n<invoke name=\"f\"><parameter>x</parameter></invoke>\n</dots_function_call>\n<dots_function_call>{\"name\": \"get_time\", \"arguments\": {\"tz\": \"UTC\"}}</dots_function_call> <dots_function_call>nope</dots_function_call> <dots_function_call><invoke name=\"get_time\"><parameter name=\"tz\">CE",
    "<dots_function_call>{\"name\": \"f\", \"arguments\": {\"a\": \"</dots_function_call>\"}} <dots_func <dots_function_call>",
    "I'll check.<|message_sep|>\n\nfunction call<|role_sep|>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 3}}</s><|function_call|>{\"name\": \"get_time\", \"arguments\": {\"tz\": \"U",
    "<|message_sep|>\n\nassistant<|role_sep|>\nHi.<|function_call|>nope <|function_call|>{\"name\": \"f\", \"arguments\": {\"a\": } }\n<|message_sep|>  function call <|role_sep|> {\"name\": \"get_time\", \"arguments\": {}} </ <|message_sep|>\n\nfunction ca",
    "On it.<|message_model|>get_weather<|content_invoke_tool_json|>{\"name\": \"get_weather\", \"args\": {\"city\": \"Paris\", \"days\": 3}}<|end_message|>\n<|message_model|>assistant<|content_text|>x<|end_message|><|message_model|>f<|content_invoke_tool_json|>nope<|message_model|>get_time<|content_invoke_tool_json|>{\"name\": \"get_time\", \"args\": {\"tz\": \"U",
    "all\nHello, world!\nnono\nWhat's up?>>>get_weather\n{\"city\": \"Paris\", \"days\": 3}\n>>>all\nAnd >>>f\n{oops}\n>>>get_time\n{\"tz\": \"U",
    "get_time\n{\"tz\": \"UTC\"} >>> print(1) >>>x\ny >>>python\n# code\nprint('>>>all')",
    "  python\n",
    "I will.\n]<]minimax[>[<tool_call>\n]<]minimax[>[<invoke name=\"get_weather\">]<]minimax[>[<city>Paris]<]minimax[>[</city>]<]minimax[>[<days>3]<]minimax[>[</days>]<]minimax[>[</invoke>\n]<]minimax[>[<invoke name=\"f\">]<]minimax[>[<a>]<]minimax[>[<item>1]<]minimax[>[</item>]<]minimax[>[</a>]<]minimax[>[<b>]<]minimax[>[<x>1]<]minimax[>[</b>]<]minimax[>[</invoke>\n]<]minimax[>[</tool_call> ok <mm:think>]<]minimax[>[<tool_call></mm:think>]<]minimax[>[<tool_call>]<]minimax[>[<invoke name=\"get_time\">]<]minimax[>[<tz>U",
    "]<]minimax[>[<tool_call>]<]minimax[>[</tool_call> ]<]mini ]<]minimax[>[<tool_call>x]<]minimax[>[<invoke name=>]<]minimax[>[</invoke>",
    "Sure.\nAction:\n```json\n[\n  {\"tool_name\": \"get_weather\", \"parameters\": {\"city\": \"Paris\", \"days\": 3}},\n  {oops},\n  {\"tool_name\": \"get_time\", \"parameters\": {\"tz\": \"UTC\"}}\n]\n```\nAction: none. Action:\n```python\nx\n``` Action:\n```json\n[{\"tool_name\": \"f\", \"parameters\": {\"a\": \"",
    " to=user<|message|>Hello <atem:invoke name=\"f\">!<|eom|><|start|>assistant to=self<|message|>think <atem:function_calls><atem:invoke name=\"f\"></atem:invoke></atem:function_calls><|eom|><|start|>assistant to=get_weather<|message|><atem:function_calls>\n<atem:invoke name=\"get_weather\">\n<atem:parameter name=\"city\">Paris</atem:parameter>\n<atem:parameter name=\"days\">3</atem:parameter>\n</atem:invoke>\n</atem:function_calls><|eom|><|start|>assistant to=f<|message|>oops<|eom|><|start|>assistant to=get_time<|message|>{\"tz\": \"U",
    "<|start|>assistant to=f<|message|>{\"a\": 1}<|start|>assistant<|message|>x<|eot|> <atem:function_calls><atem:invoke name=\"get_time\"><atem:parameter name=\"tz\">CET</atem:parameter></atem:invoke></atem:function_calls> <|start|>assistant to=",
    "Sure.\n<tool>\n  {\"name\": \"get_weather\", \"arguments\": {\"city\": \"</tool>\", \"days\": 3}}\n</tool>\n<response>ok</response> <json>{oops}</json> <function name=\"get_time\">\n{\"tz\": \"UTC\"}\n</function> {\"name\": \"f\", \"arguments\": {}} ```xml\n<xml>[{\"name\": \"f\", \"arguments\": {\"a\": 1}}]</xml>\n``` <JSON>{\"name\": \"get_time\", \"arguments\": {\"tz\": \"C",
    "<function=get_time>{\"tz\": \"UTC\"}</function> <function_call> {\"name\": \"f\", \"arguments\": {}} </function_call> <tools>\n<function name=\"f\"><param name=\"a\">1</param></function> <respon",    // K2 Horizon: reasoning efforts, calls without their section, a JSON list, a bad list.
    "<ifm|think_faster>hm <ifm|tool_call>f</ifm|tool_call></ifm|think_faster>Ok <ifm|tool_call>get_weather<ifm|arg_key>city</ifm|arg_key><ifm|arg_value>Paris</ifm|arg_value></ifm|tool_call>\n<ifm|tool_call>[{\"name\": \"f\", \"arguments\": {\"a\": 1}}, {\"arguments\": 2}]</ifm|tool_call> <ifm|tool_call>[oops</ifm|tool_call> <ifm|think>x</ifm|think> <ifm|tool_call>get_time<ifm|arg_key>tz</ifm|arg_key><ifm|arg_val",
    // Hunyuan's tokens with a checkpoint suffix: a think block, two groups, a call whose
    // keys lack the suffix, a space in a suffix, a group cut off.
    "Plan <think:opensource>maybe <tool_calls:opensource><tool_call:opensource>get_time</tool_call:opensource></tool_calls:opensource></think:opensource> Now.<tool_calls:opensource>\n<tool_call:opensource>get_weather<tool_sep:opensource>\n<arg_key:opensource>city</arg_key:opensource>\n<arg_value:opensource>Paris</arg_value:opensource>\n</tool_call:opensource>\n<tool_call:opensource>f<arg_key>a</arg_key></tool_call:opensource>\n<tool_call:opensource>get_time</tool_call:opensource></tool_calls:opensource> <tool_calls:6124c78e><tool_call:6124c78e>get_time</tool_call:6124c78e></tool_calls:6124c78e> <tool_calls:x y> </think:z <tool_calls:opens",
];

fn stream(text: &str, format: TextFormat, cuts: &[usize]) -> TextParse {
    let tools = tools();
    let mut stream = TextStream::new(format, &tools);
    let mut events = Vec::new();
    let mut last = 0;
    for &cut in cuts {
        events.extend(stream.push(&text[last..cut]));
        last = cut;
    }
    events.extend(stream.push(&text[last..]));
    events.extend(stream.finish());
    events.into_iter().collect()
}

/// Random cut points at char boundaries, in order.
fn random_cuts(text: &str, rng: &mut Rng, count: usize) -> Vec<usize> {
    let mut cuts: Vec<usize> = (0..count)
        .map(|_| {
            let mut at = rng.below(text.len() + 1);
            while !text.is_char_boundary(at) {
                at += 1;
            }
            at
        })
        .collect();
    cuts.sort_unstable();
    cuts
}

fn formats() -> impl Iterator<Item = TextFormat> {
    std::iter::once(TextFormat::Auto).chain(TextFormat::ALL)
}

/// What a parse must always satisfy.
fn check_invariants(text: &str, parsed: &TextParse) {
    for error in &parsed.errors {
        assert_eq!(
            text.get(error.span.clone()),
            Some(error.raw.as_str()),
            "{error:?} in {text:?}"
        );
    }
    for (n, call) in parsed.calls.iter().enumerate() {
        assert_eq!(call.id, format!("call_{n}"));
        let arguments: Value = serde_json::from_str(&call.arguments)
            .unwrap_or_else(|e| panic!("{call:?} from {text:?}: {e}"));
        assert!(arguments.is_object(), "{call:?}");
    }
}

#[test]
fn streaming_equals_whole_text_however_it_is_split() {
    let tools = tools();
    let mut rng = Rng(0x5eed_1234_abcd_ef01);
    for text in SAMPLES {
        for format in formats() {
            let whole = parse(text, format, &tools);
            check_invariants(text, &whole);
            // One cut at every char boundary.
            for cut in (0..=text.len()).filter(|&i| text.is_char_boundary(i)) {
                assert_eq!(
                    stream(text, format, &[cut]),
                    whole,
                    "{format:?} cut at {cut}: {text:?}"
                );
            }
            // Char by char.
            let every: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
            assert_eq!(
                stream(text, format, &every),
                whole,
                "{format:?} char by char: {text:?}"
            );
            for _ in 0..50 {
                let count = 1 + rng.below(12);
                let cuts = random_cuts(text, &mut rng, count);
                assert_eq!(
                    stream(text, format, &cuts),
                    whole,
                    "{format:?} cut at {cuts:?}: {text:?}"
                );
            }
        }
    }
}

#[test]
fn every_prefix_parses_without_panic_and_streams_the_same() {
    let tools = tools();
    let mut rng = Rng(42);
    for text in SAMPLES {
        for end in (0..=text.len()).filter(|&i| text.is_char_boundary(i)) {
            let prefix = &text[..end];
            for format in formats() {
                let whole = parse(prefix, format, &tools);
                check_invariants(prefix, &whole);
                let cuts = random_cuts(prefix, &mut rng, 3);
                assert_eq!(
                    stream(prefix, format, &cuts),
                    whole,
                    "{format:?} {cuts:?}: {prefix:?}"
                );
            }
        }
    }
}

/// Pieces that matter to the parsers, to build random inputs from.
const PIECES: &[&str] = &[
    "<tool_call>",
    "<tool_calls:x>",
    "<tool_call:x>",
    "</tool_call:x>",
    "<think:x>",
    "</think:x>",
    "</tool_call>",
    "<function=",
    "f>",
    "get_weather>",
    "<parameter=",
    "city>",
    "</parameter>",
    "</function>",
    "[TOOL_CALLS]",
    "[ARGS]",
    "[CALL_ID]",
    "<|python_tag|>",
    "<|python_start|>",
    "<|python_end|>",
    "{",
    "}",
    "[",
    "]",
    "(",
    ")",
    "\"",
    "'",
    ":",
    ",",
    ";",
    "=",
    "\\",
    "\n",
    " ",
    "\r\n",
    "\t",
    "name",
    "\"name\"",
    "\"arguments\"",
    "\"parameters\"",
    "\"tool_calls\"",
    "\"tool_call\"",
    "\"response\"",
    "\"get_weather\"",
    "get_weather(",
    "f(",
    "city=",
    "```",
    "```json\n",
    "`",
    "true",
    "True",
    "None",
    "null",
    "1",
    "-2.5e3",
    "0x1f",
    "é",
    "日本",
    "🦀",
    "\u{0}",
    "x",
    "<",
    "[f(a=1)]",
    "{\"name\": \"f\", \"arguments\": {}}",
    "'''",
    "\"\"\"",
    "#",
    "/*",
    "//",
    "```json",
    "<|",
    "|>",
    "<|start|>assistant",
    "<|channel|>",
    "analysis",
    "commentary",
    " to=functions.f",
    "<|constrain|>json",
    "<|message|>",
    "<|end|>",
    "<|call|>",
    "<|tool_call>call:f{",
    "<|\"|>",
    "<tool_call|>",
    "<start_function_call>call:",
    "<escape>",
    "<|tool_call_start|>",
    "<|tool_call_end|>",
    "<function_calls>",
    "</function_calls>",
    "<function=f>",
    "</function>",
    "<|tools_prefix|>",
    "{\"f\": {}}",
    "<|START_ACTION|>",
    "<|END_ACTION|>",
    "\"tool_name\"",
    "<arg_key>",
    "</arg_key>",
    "<arg_value>",
    "</arg_value>",
    "<tool_calls>",
    "<tool_sep>",
    "<ifm|tool_calls>",
    "<ifm|tool_call>",
    "<minimax:tool_call>",
    "<invoke name=\"",
    "<parameter name=\"",
    "</invoke>",
    "<function name=",
    "<param name=",
    "</param>",
    "<｜tool_calls_begin｜>",
    "<steptml:invoke name=",
    "<seed:tool_call>",
    "<|plamo:begin_tool_requests:plamo|>",
    "<|plamo:begin_tool_name:plamo|>",
    "<｜tool▁calls▁begin｜>",
    "<｜tool▁call▁begin｜>",
    "<｜tool▁sep｜>",
    "<｜tool▁call▁end｜>",
    "<｜tool▁calls▁end｜>",
    "function",
    "\n```json\n",
    "<｜DSML｜function_calls>",
    "</｜DSML｜function_calls>",
    "<｜DSML｜tool_calls>",
    "<｜DSML｜invoke name=\"f\">",
    "</｜DSML｜invoke>",
    "<｜DSML｜parameter name=\"city\" string=\"true\">",
    "<｜DSML｜parameter name=\"x\" string=\"false\">",
    "</｜DSML｜parameter>",
    "<｜DSML｜ calls>",
    "<|tool_calls_section_begin|>",
    "<|tool_call_begin|>",
    "functions.f:0",
    "<|tool_call_argument_begin|>",
    "<|tool_call_end|>",
    "<|tool_calls_section_end|>",
    "<|open|>tools<|sep|>",
    "<|open|>call tool=\"f\" index=\"1\"<|sep|>",
    "<|open|>argument key=\"city\" type=\"string\"<|sep|>",
    "<|open|>argument key=\"x\" type=\"number\"<|sep|>",
    "<|close|>argument<|sep|>",
    "<|close|>call<|sep|>",
    "<|close|>tools<|sep|>",
    "<|open|>response<|sep|>",
    "<|close|>response<|sep|>",
    "[{\"name\": \"get_weather\", \"arguments\": ",
    "[{\"name\": \"Bob\", \"arguments\": {}}]",
    "functools[",
    "functools",
    "func",
    "<dots_function_call>",
    "</dots_function_call>",
    "<|message_sep|>",
    "\n\nfunction call",
    "<|role_sep|>",
    "<|function_call|>",
    "</s>",
    "<|message_model|>",
    "<|content_invoke_tool_json|>",
    "<|end_message|>",
    "\"args\"",
    ">>>",
    ">>>all\n",
    ">>>f\n",
    "all\n",
    "python\n",
    "]<]minimax[>[<tool_call>",
    "]<]minimax[>[<invoke name=\"f\">",
    "]<]minimax[>[<city>",
    "]<]minimax[>[</city>",
    "]<]minimax[>[<item>",
    "]<]minimax[>[</invoke>",
    "]<]minimax[>[</tool_call>",
    "<mm:think>",
    "Action:",
    "Action:\n```json\n[",
    "\"tool_name\": \"f\"",
    "<|start|>assistant to=f<|message|>",
    " to=user<|message|>",
    "<|start|>assistant to=self<|message|>",
    "<atem:function_calls>",
    "<atem:invoke name=\"f\">",
    "<atem:parameter name=\"city\">",
    "</atem:parameter>",
    "</atem:invoke>",
    "</atem:function_calls>",
    "<|eom|>",
    "<|eot|>",
    "<tool>",
    "</tool>",
    "<response>",
    "</response>",
    "<JSON>",
    "</function_call>",
    "<function name=\"f\">",
    "```xml\n",
];

#[test]
fn random_inputs_never_panic_and_stream_the_same() {
    let tools = tools();
    // More with TEXT_FUZZ_ROUNDS=n (and another seed with TEXT_FUZZ_SEED=n).
    let env = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<u64>().ok());
    let rounds = env("TEXT_FUZZ_ROUNDS").unwrap_or(3000);
    let mut rng = Rng(env("TEXT_FUZZ_SEED").unwrap_or(0xdead_beef_cafe_f00d) | 1);
    for round in 0..rounds {
        let text: String = if round % 5 == 4 {
            // Arbitrary bytes, made valid UTF-8.
            let bytes: Vec<u8> = (0..rng.below(80)).map(|_| rng.next() as u8).collect();
            String::from_utf8_lossy(&bytes).into_owned()
        } else {
            (0..rng.below(24))
                .map(|_| PIECES[rng.below(PIECES.len())])
                .collect()
        };
        for format in formats() {
            let whole = parse(&text, format, &tools);
            check_invariants(&text, &whole);
            let without_tools = parse(&text, format, &());
            check_invariants(&text, &without_tools);
            let count = rng.below(6);
            let cuts = random_cuts(&text, &mut rng, count);
            assert_eq!(
                stream(&text, format, &cuts),
                whole,
                "{format:?} {cuts:?}: {text:?}"
            );
        }
    }
}

#[test]
fn deep_and_long_inputs_are_handled() {
    let tools = tools();
    let deep_json = format!(
        "<tool_call>{{\"name\": \"f\", \"arguments\": {}{}",
        "[".repeat(100_000),
        "]".repeat(10)
    );
    let deep_python = format!("[f(a={})]", "[".repeat(100_000));
    let long_spaces = format!(
        "<tool_call>{{name: f, arguments: {{a: b{}c}}</tool_call>",
        " ".repeat(1_000_000)
    );
    let many_triggers = "<[{`".repeat(100_000);
    for text in [deep_json, deep_python, long_spaces, many_triggers] {
        for format in formats() {
            let parsed = parse(&text, format, &tools);
            check_invariants(&text, &parsed);
        }
    }
}

#[test]
fn a_truncated_call_is_never_silently_dropped() {
    // Every prefix of a call that has begun is either a call, an error, or still in the text.
    let text = "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 3}}\n</tool_call>";
    for end in 1..=text.len() {
        let prefix = &text[..end];
        let parsed = parse(prefix, TextFormat::Auto, &tools());
        let kept = !parsed.calls.is_empty() || !parsed.errors.is_empty() || parsed.text == prefix;
        assert!(kept, "{prefix:?}: {parsed:?}");
    }
}
