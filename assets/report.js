/* Conveniences only; the report reads the same without them.
   Printing opens every collapsed section. */
window.addEventListener("beforeprint", function () {
  document.querySelectorAll("details").forEach(function (d) { d.open = true; });
});
/* Sorting for tables marked "sortable": click a heading. */
document.querySelectorAll("table.sortable").forEach(function (table) {
  table.querySelectorAll("th").forEach(function (th, col) {
    th.tabIndex = 0;
    th.addEventListener("click", function () {
      var body = table.tBodies[0], rows = [];
      var dir = th.dataset.dir === "asc" ? -1 : 1;
      th.dataset.dir = dir === 1 ? "asc" : "desc";
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
    });
  });
});
