// Kiln's one script. Every page works without it; it only adds conveniences: copy buttons, the
// "/" shortcut to the search box, Escape to close an open menu, and line-range anchors (#L10-L20)
// for pages that number lines. Loaded as a same-origin file with the page's CSP nonce.
(() => {
  // Copy buttons: <button data-copy="{id of the element whose value or text to copy}" hidden>.
  // Hidden in the markup because they do nothing without a script.
  for (const button of document.querySelectorAll("button[data-copy]")) {
    const source = document.getElementById(button.dataset.copy);
    if (!source || !navigator.clipboard) continue;
    button.hidden = false;
    const label = button.querySelector("span");
    button.addEventListener("click", async () => {
      const text = "value" in source ? source.value : source.textContent;
      try {
        await navigator.clipboard.writeText(text);
        if (label) label.textContent = "Copied";
      } catch {
        if ("select" in source) source.select();
        if (label) label.textContent = "Press Ctrl+C";
      }
      setTimeout(() => {
        if (label) label.textContent = "Copy";
      }, 2000);
    });
  }

  const typing = (el) =>
    el instanceof HTMLElement && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName));

  document.addEventListener("keydown", (event) => {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === "Escape") {
      for (const open of document.querySelectorAll("details.menu[open]")) {
        open.removeAttribute("open");
        open.querySelector("summary")?.focus();
      }
      return;
    }
    if (typing(document.activeElement)) return;
    // Elements with data-hotkey="{key}" are focused by that key ("/" for the search box).
    const target = document.querySelector(`[data-hotkey="${CSS.escape(event.key)}"]`);
    if (target instanceof HTMLElement) {
      event.preventDefault();
      target.focus();
    }
  });

  // A click outside an open menu closes it.
  document.addEventListener("click", (event) => {
    for (const open of document.querySelectorAll("details.menu[open]")) {
      if (!open.contains(event.target)) open.removeAttribute("open");
    }
  });

  // Line ranges: lines are elements with id="L{n}"; #L10-L20 marks lines 10 to 20, and a
  // shift-click on a line number extends the range.
  const markLines = () => {
    for (const line of document.querySelectorAll(".line-selected")) line.classList.remove("line-selected");
    const m = /^#L(\d+)(?:-L(\d+))?$/.exec(location.hash);
    if (!m) return;
    const from = Number(m[1]);
    const to = Number(m[2] ?? m[1]);
    for (let n = Math.min(from, to); n <= Math.max(from, to) && n - from < 10000; n++) {
      document.getElementById(`L${n}`)?.classList.add("line-selected");
    }
  };
  let anchor = 0;
  document.addEventListener("click", (event) => {
    const link = event.target instanceof Element ? event.target.closest("a[href^='#L']") : null;
    if (!link) return;
    const n = Number(link.getAttribute("href").slice(2));
    if (!Number.isInteger(n)) return;
    if (event.shiftKey && anchor) {
      event.preventDefault();
      history.replaceState(null, "", `#L${Math.min(anchor, n)}-L${Math.max(anchor, n)}`);
      markLines();
    } else {
      anchor = n;
    }
  });
  window.addEventListener("hashchange", markLines);
  markLines();
})();
