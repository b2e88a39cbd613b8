import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  GENERATED_FILE,
  STATEMENTS_DIR,
  generateStatementTypes,
  statementParams,
} from "../../../scripts/flow-statement-types.mts";

const root = path.resolve(import.meta.dirname, "../../..");

describe("the participant flow's statement parameter types", () => {
  it("the generated types match the statement files (after a change to a file: npm run db:statement-types)", async () => {
    expect(fs.readFileSync(path.join(root, GENERATED_FILE), "utf8")).toBe(
      await generateStatementTypes(path.join(root, STATEMENTS_DIR)),
    );
  });

  it("reads names, types and NULL marks in order", () => {
    const text = [
      "-- @param $1 studyId text",
      "-- @param $2 maxParticipants int?",
      "-- @param $3 slots int?[]",
      "SELECT $1::text, $2::int, $3::int[], $1",
    ].join("\n");
    expect(statementParams("a.sql", text)).toEqual([
      { name: "studyId", type: "text", nullable: false, nullableElements: false },
      { name: "maxParticipants", type: "int", nullable: true, nullableElements: false },
      { name: "slots", type: "int[]", nullable: false, nullableElements: true },
    ]);
  });

  it("refuses a file whose parameters disagree with its text, naming the file and the parameter", () => {
    expect(() => statementParams("a.sql", "-- @param $1 id text\nSELECT $1, $2")).toThrow(
      "a.sql: $2 is used but not declared",
    );
    expect(() => statementParams("a.sql", "-- @param $1 id text\n-- @param $2 now timestamp\nSELECT $1")).toThrow(
      "a.sql: @param $2 now is declared but not used",
    );
    expect(() => statementParams("a.sql", "-- @param $1 k int\nSELECT $1::text")).toThrow(
      "a.sql: $1 k is declared int but cast to text",
    );
    expect(() => statementParams("a.sql", "-- @param $2 k int\nSELECT $2")).toThrow(
      "a.sql: @param $2 out of order (expected $1)",
    );
    expect(() => statementParams("a.sql", "-- @param $1 k bigint\nSELECT $1")).toThrow(
      "a.sql: @param $1 k: unknown type bigint",
    );
    // A $N in a comment is neither a use nor an undeclared parameter.
    expect(() => statementParams("a.sql", "-- @param $1 id text\n-- see $7\nSELECT $1")).not.toThrow();
  });
});
