import yauzl from "yauzl";

/**
 * The bytes a zip (an xlsx workbook is one) declares its entries to expand to, in total, from its central directory
 * alone: nothing is inflated. yauzl checks each entry's real size against this declaration when it is read, so a zip
 * cannot expand past it through yauzl; other readers (exceljs's JSZip) are run under the heavy-work pool's memory cap.
 */
export function zipInflatedSize(bytes: Uint8Array): Promise<number> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      { lazyEntries: true },
      (err, zip) => {
        if (err || !zip) return reject(err ?? new Error("cannot open the zip"));
        let total = 0;
        zip.on("entry", (entry: yauzl.Entry) => {
          total += entry.uncompressedSize;
          zip.readEntry();
        });
        zip.on("end", () => resolve(total));
        zip.on("error", reject);
        zip.readEntry();
      },
    );
  });
}
