// A command for the test suite (tests/unit/test_web_client.py): reads a JSON array of 18xx.games
// actions on stdin and writes, for each, the binary roundhouse.v1.Action the browser client sends
// (base64) and the JSON it reads back from that binary, so the Python side can check that the
// client's conversion is the contract's (libs/contracts/actions.py), losslessly.
import { fromBinary, toBinary } from "@bufbuild/protobuf";
import { readFileSync } from "node:fs";
import { type ActionJson, actionFromJson, actionToJson } from "../src/actions";
import { ActionSchema } from "../src/gen/roundhouse/v1/actions_pb";

const actions = JSON.parse(readFileSync(0, "utf8")) as ActionJson[];
const out = actions.map((a) => {
  const bytes = toBinary(ActionSchema, actionFromJson(a));
  return { bin: Buffer.from(bytes).toString("base64"), back: actionToJson(fromBinary(ActionSchema, bytes)) };
});
process.stdout.write(JSON.stringify(out));
