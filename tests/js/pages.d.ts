// What the pages' scripts share beyond the DOM, for tsc (tsconfig.json).

interface Window {
  /** The table's state for the tests and learn.js, read only (table.js). */
  cardavia?: any;
  /** A tournament deal's game, handed to table.js by tournament_play.js. */
  cardaviaGivenGame?: any;
  /** Learning at the table, for the tests (learn.js). */
  cardaviaLearn?: any;
}

// Every element these pages meet is an HTML or SVG element: each has a dataset, a style, a
// tab index and focus() (the DOM's HTMLOrSVGElement and ElementCSSInlineStyle), whatever
// querySelector found.
interface Element extends HTMLOrSVGElement, ElementCSSInlineStyle {}
