// What every table the tool prints is drawn from, as data: each command's model.js builds it, view/ renders it
// (terminal, markdown, HTML). Kept here, below both, so a layer that builds one imports nothing
// above it.

/**
 * A report as data: a title, table sections, and lines after. Both renderers read the same
 * model, so the markdown never drifts from the terminal table.
 * @typedef {{ title: string, lines?: string[], tables: { head: string[], rows: string[][], align?: string[], widths?: number[] }[], notes: string[], blocks?: string[], level?: number }} ReportModel
 *   widths: column widths for the terminal, long cells wrap at words; blocks: preformatted text
 *   (charts) after the notes, never wrapped, fenced in markdown; level: its title's heading level
 *   in markdown (3 unless told: a report of its own, such as REPORT.md, heads it 1 and its parts 2)
 */

export {};
