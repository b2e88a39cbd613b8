// npm run user:create -- --email a@b.org --role researcher|admin [--password …] [--name …] [--update] [--reset-password]
// npm run user:create -- --email a@b.org --disable|--enable   (switch an account off or on; audited)
// npm run user:create -- --email a@b.org --unlock              (clear its failed sign-ins, the throttle; audited)
// Creates a staff account, printing a generated password once when none is given. An existing email is refused
// unless --update is passed; --update changes the role (and the password when --password or --reset-password is given).
import fs from "node:fs";
import { parseArgs } from "node:util";
import { ZodError } from "zod";
import { disconnectDb } from "@/lib/server/db";
import { AppError } from "@/lib/server/errors";
import { saveUser } from "@/lib/server/dal/users/save-user";
import { setUserDisabled } from "@/lib/server/dal/users/set-user-disabled";
import { clearUserSignInLock } from "@/lib/server/dal/users/clear-user-sign-in-lock";

if (fs.existsSync(".env")) process.loadEnvFile(".env");

const USAGE =
  "usage: npm run user:create -- --email <email> --role <admin|researcher> [--password <pw>] [--name <name>] [--update] [--reset-password]\n       npm run user:create -- --email <email> --disable|--enable|--unlock";

let exitCode = 0;
try {
  const { values } = parseArgs({
    options: {
      email: { type: "string" },
      role: { type: "string" },
      password: { type: "string" },
      name: { type: "string" },
      update: { type: "boolean", default: false },
      "reset-password": { type: "boolean", default: false },
      disable: { type: "boolean", default: false },
      enable: { type: "boolean", default: false },
      unlock: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
  } else if (values.unlock) {
    if (!values.email) throw new AppError("BAD_REQUEST", `--email is required.\n${USAGE}`);
    const result = await clearUserSignInLock({ user: values.email, actorId: null });
    console.log(`${result.email}: cleared ${result.cleared} failed sign-in(s).`);
  } else if (values.disable || values.enable) {
    if (values.disable && values.enable)
      throw new AppError("BAD_REQUEST", "Give either --disable or --enable, not both.");
    if (!values.email) throw new AppError("BAD_REQUEST", `--email is required.\n${USAGE}`);
    const result = await setUserDisabled({ user: values.email, input: { disabled: values.disable }, actorId: null });
    console.log(
      `${result.email} is ${result.disabled ? "disabled" : "enabled"}${result.changed ? "" : " (unchanged)"}.`,
    );
  } else {
    if (!values.email || !values.role) throw new AppError("BAD_REQUEST", `--email and --role are required.\n${USAGE}`);
    if (values.password && values["reset-password"])
      throw new AppError("BAD_REQUEST", "Give either --password or --reset-password, not both.");
    const result = await saveUser({
      input: { email: values.email, role: values.role, name: values.name, password: values.password },
      update: values.update,
      resetPassword: values["reset-password"],
      actorId: null,
    });
    console.log(`${result.created ? "Created" : "Updated"} ${result.role} account ${result.email}.`);
    if (result.generatedPassword) console.log(`Password (generated now, shown only once): ${result.generatedPassword}`);
    else if (result.passwordChanged) console.log("Password set from --password.");
    else console.log("Password unchanged.");
  }
} catch (err) {
  exitCode = 1;
  if (err instanceof ZodError)
    console.error(
      `Invalid input:\n${err.issues.map((i) => `  --${i.path.join(".") || "input"}: ${i.message}`).join("\n")}`,
    );
  else if (err instanceof AppError) console.error(err.message);
  else if (
    err instanceof Error &&
    "code" in err &&
    String((err as { code: unknown }).code).startsWith("ERR_PARSE_ARGS")
  )
    console.error(`${err.message}\n${USAGE}`);
  else console.error(`user:create failed: ${err instanceof Error ? err.message : String(err)}`);
} finally {
  await disconnectDb();
}
process.exitCode = exitCode;
