/* Conveniences only; the report reads the same without them.
   Printing opens every collapsed section. */
window.addEventListener("beforeprint", function () {
  document.querySelectorAll("details").forEach(function (d) { d.open = true; });
});
/* Sorting for tables marked "sortable": click a heading (or Enter on it).
   The headings show an arrow (report.css, table.js-sort) and aria-sort
   says which column sorts which way; the hint appears only here, where
   sorting works. */
document.querySelectorAll("table.sortable").forEach(function (table) {
  var heads = table.querySelectorAll("th");
  table.classList.add("js-sort");
  heads.forEach(function (th, col) {
    th.tabIndex = 0;
    th.setAttribute("aria-sort", "none");
    function sort() {
      var body = table.tBodies[0], rows = [];
      var dir = th.getAttribute("aria-sort") === "ascending" ? -1 : 1;
      heads.forEach(function (h) { h.setAttribute("aria-sort", "none"); });
      th.setAttribute("aria-sort", dir === 1 ? "ascending" : "descending");
      /* a row of class "sub" (a part of the row above) moves with it */
      Array.prototype.forEach.call(body.rows, function (r) {
        if (r.classList.contains("sub") && rows.length) rows[rows.length - 1].subs.push(r);
        else rows.push({ row: r, subs: [] });
      });
      rows.sort(function (a, b) {
        var x = a.row.cells[col], y = b.row.cells[col];
        var vx = x.dataset.v, vy = y.dataset.v;
        if (vx !== undefined && vy !== undefined) return dir * (Number(vx) - Number(vy));
        return dir * x.textContent.localeCompare(y.textContent);
      });
      rows.forEach(function (g) {
        body.appendChild(g.row);
        g.subs.forEach(function (r) { body.appendChild(r); });
      });
    }
    th.addEventListener("click", sort);
    th.addEventListener("keydown", function (e) {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); sort(); }
    });
  });
});
document.querySelectorAll(".sort-hint").forEach(function (p) { p.hidden = false; });
