/* Sorting for tables marked "sortable": click a heading or press Enter on
   it (a convenience; the report reads the same without it). Only
   single-row headings sort. The arrows (report.css, table.js-sort),
   aria-sort and the hint appear only here, where sorting works. */
document.querySelectorAll("table.sortable").forEach(function (table) {
  if (table.tHead.rows.length !== 1) return;
  var heads = table.querySelectorAll("th");
  table.classList.add("js-sort");
  heads.forEach(function (th, col) {
    th.tabIndex = 0;
    th.setAttribute("aria-sort", "none");
    function sort() {
      var body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);
      var dir = th.getAttribute("aria-sort") === "ascending" ? -1 : 1;
      heads.forEach(function (h) { h.setAttribute("aria-sort", "none"); });
      th.setAttribute("aria-sort", dir === 1 ? "ascending" : "descending");
      rows.sort(function (a, b) {
        var x = a.cells[col], y = b.cells[col];
        var vx = x.dataset.v, vy = y.dataset.v;
        if (vx !== undefined && vy !== undefined) return dir * (Number(vx) - Number(vy));
        return dir * x.textContent.localeCompare(y.textContent);
      });
      rows.forEach(function (r) { body.appendChild(r); });
    }
    th.addEventListener("click", sort);
    th.addEventListener("keydown", function (e) {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); sort(); }
    });
  });
});
document.querySelectorAll(".sort-hint").forEach(function (p) { p.hidden = false; });
