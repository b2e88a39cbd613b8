import type { ReactNode, TableHTMLAttributes, TdHTMLAttributes, ThHTMLAttributes } from "react";

/**
 * Every table of the app (staff pages, results, the participant primer). `boxed`: a list in a white bordered box that
 * scrolls sideways on its own on a narrow screen (the page does not); `ruled`: results-style rows separated by rules;
 * `plain`: a small table inside a card.
 * Cells come in three paddings: `md` for lists, `sm` for dense lists, `xs` for figures.
 */
type Variant = "boxed" | "ruled" | "plain";
type Size = "md" | "sm" | "xs";

const PADDING: Record<Size, string> = { md: "px-3 py-2", sm: "px-3 py-1", xs: "px-2 py-1" };
// Whole class names, so Tailwind finds them in this file.
const ALIGN = { left: "text-left", right: "text-right" } as const;

const cx = (...classes: Array<string | false | null | undefined>) => classes.filter(Boolean).join(" ");

interface DataTableProps extends TableHTMLAttributes<HTMLTableElement> {
  variant?: Variant;
  /** Read by screen readers only. */
  caption?: string;
  /** Classes of the outer element (its margins). */
  className?: string;
}

export function DataTable({ variant = "boxed", caption, className, children, ...rest }: DataTableProps) {
  const content = (
    <>
      {caption ? <caption className="sr-only">{caption}</caption> : null}
      {children}
    </>
  );
  if (variant === "plain")
    return (
      <table className={cx("text-sm", className)} {...rest}>
        {content}
      </table>
    );
  return (
    <div
      className={cx(
        variant === "boxed" ? "overflow-x-auto rounded border border-slate-300 bg-white" : "overflow-x-auto",
        className,
      )}
    >
      <table className={variant === "boxed" ? "w-full text-sm" : "min-w-full border-collapse text-sm"} {...rest}>
        {content}
      </table>
    </div>
  );
}

/** One header row of column headings (`Th`). */
export function TableHead({ variant = "boxed", children }: { variant?: Variant; children: ReactNode }) {
  if (variant === "ruled")
    return (
      <thead>
        <tr className="border-b border-slate-400 bg-slate-100">{children}</tr>
      </thead>
    );
  return (
    <thead className="bg-slate-100 text-left">
      <tr>{children}</tr>
    </thead>
  );
}

/** Body rows separated by thin rules. */
export function TableBody({ children }: { children: ReactNode }) {
  return <tbody className="divide-y divide-slate-200">{children}</tbody>;
}

interface CellProps {
  /** The table's variant: `ruled` cells default to `xs` and its headings are left-aligned, medium weight. */
  variant?: Variant;
  size?: Size;
  align?: keyof typeof ALIGN;
}

/** A heading cell: a column heading by default, `scope="row"` for a row's first cell. */
export function Th({
  variant,
  size = variant === "ruled" ? "xs" : "md",
  align,
  scope = "col",
  className,
  ...rest
}: CellProps & ThHTMLAttributes<HTMLTableCellElement>) {
  return (
    <th
      scope={scope}
      className={cx(PADDING[size], variant === "ruled" && "text-left font-medium", align && ALIGN[align], className)}
      {...rest}
    />
  );
}

export function Td({
  variant,
  size = variant === "ruled" ? "xs" : "md",
  align,
  className,
  ...rest
}: CellProps & TdHTMLAttributes<HTMLTableCellElement>) {
  return <td className={cx(PADDING[size], align && ALIGN[align], className)} {...rest} />;
}

/** The one row of an empty list, saying why it is empty and what to do. */
export function EmptyRow({ colSpan, children }: { colSpan: number; children: ReactNode }) {
  return (
    <tr>
      <td colSpan={colSpan} className="px-3 py-6 text-center text-slate-600">
        {children}
      </td>
    </tr>
  );
}
