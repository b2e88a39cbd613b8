// Child of bench/heavy-results.mts: renders the results page's body (ResultsPageView) from the props in the file named
// by argv[2] (v8-serialised) and prints the byte length of its HTML. Run without the react-server condition, so that
// react-dom/server is available.
import fs from "node:fs";
import v8 from "node:v8";
import { renderToStaticMarkup } from "react-dom/server";
import { ResultsPageView, type ResultsPageViewProps } from "@/components/results/results-page-view";

const props = v8.deserialize(fs.readFileSync(process.argv[2]!)) as Omit<ResultsPageViewProps, "flagAction">;
process.stdout.write(String(Buffer.byteLength(renderToStaticMarkup(<ResultsPageView {...props} flagAction={null} />))));
