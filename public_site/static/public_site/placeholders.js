/* Paint each image's placeholder colour (data-placeholder, its dominant colour) behind it until its pixels
   arrive, then take it away so transparent images show the page; give pictures the page crops their focal point
   (data-focal) as object-position. Set from script: the Content-Security-Policy allows no style attributes. */
(function () {
  "use strict";
  // Pictures the page crops (object-fit: cover) keep their focal point in frame.
  document.querySelectorAll("img[data-focal]").forEach((img) => { img.style.objectPosition = img.dataset.focal; });
  document.querySelectorAll("img[data-placeholder]").forEach((img) => {
    if (img.complete && img.naturalWidth) return;
    img.style.backgroundColor = img.dataset.placeholder;
    const clear = () => { img.style.backgroundColor = ""; };
    img.addEventListener("load", clear, { once: true });
    img.addEventListener("error", clear, { once: true });
  });
})();
