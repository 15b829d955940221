"use strict";
// kollide viz: draws the scene inlined in #scene-data on a 2D canvas (no WebGL, no library):
// meshes are projected with a perspective camera that orbits a target, shaded by their
// normal, and sorted back to front (a painter's algorithm); the answer's lines, points and
// arrows are drawn on top so they are never hidden. The slider picks the frame. The page
// reports itself on <body>: data-state="drawn" after a draw, data-frame, data-draws, and
// data-error with the message if anything fails (read by the browser test).
(function () {
  const $ = (id) => document.getElementById(id);
  const body = document.body;
  function fail(msg) {
    body.dataset.error = msg;
    $("error").hidden = false;
    $("error").textContent = "viewer error: " + msg;
  }
  window.addEventListener("error", (e) => fail(String(e.message)));

  let scene;
  try {
    scene = JSON.parse($("scene-data").textContent);
  } catch (e) {
    fail("the scene data does not parse: " + e.message);
    return;
  }
  document.title = "kollide viz: " + scene.title;
  $("title").textContent = scene.title;
  $("caption").textContent = scene.caption;

  const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
  const add = (a, b) => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
  const mul = (a, s) => [a[0] * s, a[1] * s, a[2] * s];
  const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  const len = (a) => Math.hypot(a[0], a[1], a[2]);
  const mid = (a, b) => mul(add(a, b), 0.5);
  const unit = (a) => mul(a, 1 / (Math.hypot(a[0], a[1], a[2]) || 1));
  const rgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));

  // The box around everything any frame shows, for the first view and "fit".
  // Query files (data refit) fit each frame on its own: their lines are separate scenes.
  // A focused scene (a mover's casts) fits the frame's items without the fixed world.
  function bounds(only) {
    const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    const grow = (x, y, z) => {
      const p = [x, y, z];
      if (!p.every(Number.isFinite)) return;
      for (let k = 0; k < 3; k++) { lo[k] = Math.min(lo[k], p[k]); hi[k] = Math.max(hi[k], p[k]); }
    };
    const visit = (item) => {
      if ("mesh" in item) {
        const v = scene.meshes[item.mesh].v;
        for (let i = 0; i < v.length; i += 3) grow(v[i] + item.at[0], v[i + 1] + item.at[1], v[i + 2] + item.at[2]);
      } else {
        const c = item.line || item.point || item.arrow;
        for (let i = 0; i < c.length; i += 3) grow(c[i], c[i + 1], c[i + 2]);
      }
    };
    if (!scene.focus) scene.fixed.forEach(visit);
    (only === undefined ? scene.frames : [scene.frames[only]]).forEach((f) => f && f.items.forEach(visit));
    if (!Number.isFinite(lo[0])) return { centre: [0, 0, 0], radius: 1 };
    const centre = mul(add(lo, hi), 0.5);
    return { centre, radius: Math.max(Math.hypot(...sub(hi, lo)) / 2, 1e-9) };
  }

  let box = bounds(scene.refit ? 0 : undefined);
  const fov = 40 * Math.PI / 180;
  const home = () => ({
    yaw: scene.flat ? 0 : 30 * Math.PI / 180,
    pitch: scene.flat ? 0 : 25 * Math.PI / 180,
    dist: 1.15 * box.radius / Math.sin(fov / 2),
    target: box.centre.slice(),
  });
  let cam = home();
  let current = 0, draws = 0;

  const canvas = $("view"), ctx = canvas.getContext("2d");
  let width = 0, height = 0;
  // The canvas fills the part of the window the page's layout leaves it (CSS); its drawing
  // buffer follows that size, in device pixels.
  function resize() {
    const ratio = window.devicePixelRatio || 1;
    width = Math.max(1, canvas.clientWidth);
    height = Math.max(1, canvas.clientHeight);
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  }

  // The camera's frame: eye, right, up, forward.
  function frame() {
    const c = Math.cos(cam.pitch);
    const toward = [c * Math.sin(cam.yaw), Math.sin(cam.pitch), c * Math.cos(cam.yaw)];
    const eye = add(cam.target, mul(toward, cam.dist));
    const fwd = mul(toward, -1);
    const right = unit(cross(fwd, [0, 1, 0]));
    return { eye, right, up: cross(right, fwd), fwd };
  }

  function draw() {
    const f = frame();
    const focal = 0.5 * height / Math.tan(fov / 2);
    const near = 1e-3 * cam.dist;
    const project = (p) => {
      const d = sub(p, f.eye);
      const z = dot(d, f.fwd);
      return [width / 2 + focal * dot(d, f.right) / z, height / 2 - focal * dot(d, f.up) / z, z];
    };
    // The part of a polygon (world points) in front of the near plane: zoomed in on a small
    // character, a terrain triangle reaches behind the camera, and dropping it whole left a
    // hole in the ground.
    const depth = (p) => dot(sub(p, f.eye), f.fwd);
    const clip = (poly, closed) => {
      const out = [];
      const n = poly.length;
      for (let i = 0; i < n; i++) {
        const p = poly[i], zp = depth(p);
        if (zp > near) out.push(p);
        if (!closed && i === n - 1) break;
        const q = poly[(i + 1) % n], zq = depth(q);
        if ((zp > near) !== (zq > near)) out.push(add(p, mul(sub(q, p), (near - zp) / (zq - zp))));
      }
      return out.map(project);
    };
    const light = unit(add(add(mul(f.fwd, -1), mul(f.up, 0.6)), mul(f.right, -0.3)));
    const shown = scene.fixed.concat(scene.frames.length ? scene.frames[current].items : []);
    const faces = [], marks = [];
    const bias = 2e-3 * box.radius;
    for (const item of shown) {
      if (!("mesh" in item)) { marks.push(item); continue; }
      const m = scene.meshes[item.mesh];
      const base = rgb(item.color);
      const alpha = item.alpha;
      const world = [], screen = [];
      for (let i = 0; i < m.v.length; i += 3) {
        const p = [m.v[i] + item.at[0], m.v[i + 1] + item.at[1], m.v[i + 2] + item.at[2]];
        world.push(p);
        screen.push(project(p));
      }
      const mean = (s) => s.reduce((acc, q) => acc + q[2], 0) / s.length;
      const face = (pa, pb, pc, fill, level) => {
        // Triangles much larger than the view (a terrain seen close up) are split, so that
        // the back-to-front order of their pieces is right near the small things on them.
        const longest = Math.max(len(sub(pb, pa)), len(sub(pc, pb)), len(sub(pa, pc)));
        if (level < 4 && longest > 0.3 * box.radius) {
          const [ab, bc, ca] = [mid(pa, pb), mid(pb, pc), mid(pc, pa)];
          for (const t of [[pa, ab, ca], [ab, pb, bc], [ca, bc, pc], [ab, bc, ca]]) face(...t, fill, level + 1);
          return;
        }
        let s = [project(pa), project(pb), project(pc)];
        if (s.some((q) => q[2] <= near)) s = clip([pa, pb, pc], true);
        if (s.length >= 3) faces.push({ z: mean(s), s, fill, opaque: alpha === 1 });
      };
      for (let i = 0; i < m.t.length; i += 3) {
        const [a, b, c] = [m.t[i], m.t[i + 1], m.t[i + 2]];
        const n = unit(cross(sub(world[b], world[a]), sub(world[c], world[a])));
        const shade = 0.35 + 0.65 * Math.abs(dot(n, light));
        const col = base.map((x) => Math.round(x * shade));
        face(world[a], world[b], world[c], `rgba(${col},${alpha})`, 0);
      }
      const edge = `rgba(${base.map((x) => Math.round(x * 0.45))},${item.ghost ? 0.5 : 0.9})`;
      for (let i = 0; i < m.e.length; i += 2) {
        let s = [screen[m.e[i]], screen[m.e[i + 1]]];
        if (s.some((q) => q[2] <= near)) s = clip([world[m.e[i]], world[m.e[i + 1]]], false);
        if (s.length < 2) continue;
        faces.push({ z: mean(s) - bias, s, stroke: edge, dashed: item.ghost });
      }
    }
    faces.sort((x, y) => y.z - x.z);
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(0, 0, width, height);
    ctx.lineJoin = "round";
    for (const p of faces) {
      ctx.beginPath();
      ctx.moveTo(p.s[0][0], p.s[0][1]);
      for (let k = 1; k < p.s.length; k++) ctx.lineTo(p.s[k][0], p.s[k][1]);
      if (p.fill) {
        ctx.closePath();
        ctx.fillStyle = p.fill;
        ctx.fill();
        if (p.opaque) {
          ctx.strokeStyle = p.fill; // hides the hairline seams between opaque triangles
          ctx.lineWidth = 0.5;
          ctx.setLineDash([]);
          ctx.stroke();
        }
      } else {
        ctx.strokeStyle = p.stroke;
        ctx.lineWidth = 1;
        ctx.setLineDash(p.dashed ? [4, 3] : []);
        ctx.stroke();
      }
    }
    ctx.setLineDash([]);
    ctx.font = "12px sans-serif";
    const label = (text, at, color) => {
      if (!text) return;
      ctx.fillStyle = "rgba(255,255,255,0.8)";
      const w = ctx.measureText(text).width;
      ctx.fillRect(at[0] + 6, at[1] - 16, w + 4, 15);
      ctx.fillStyle = color;
      ctx.fillText(text, at[0] + 8, at[1] - 4);
    };
    for (const item of marks) {
      ctx.strokeStyle = ctx.fillStyle = item.color;
      if (item.line) {
        const pts = [];
        for (let i = 0; i < item.line.length; i += 3) pts.push(project(item.line.slice(i, i + 3)));
        ctx.setLineDash(item.dashed ? [3, 4] : []);
        ctx.lineWidth = item.width || (item.dashed ? 1.2 : 1.8);
        ctx.beginPath();
        pts.forEach((q, k) => (k ? ctx.lineTo(q[0], q[1]) : ctx.moveTo(q[0], q[1])));
        ctx.stroke();
        ctx.setLineDash([]);
      } else if (item.point) {
        const q = project(item.point);
        if (q[2] <= near) continue;
        ctx.beginPath();
        ctx.arc(q[0], q[1], 4, 0, 2 * Math.PI);
        ctx.fill();
        label(item.label, q, item.color);
      } else if (item.arrow) {
        const a = project(item.arrow.slice(0, 3)), b = project(item.arrow.slice(3, 6));
        if (a[2] <= near || b[2] <= near) continue;
        ctx.lineWidth = 2;
        ctx.beginPath();
        ctx.moveTo(a[0], a[1]);
        ctx.lineTo(b[0], b[1]);
        const ang = Math.atan2(b[1] - a[1], b[0] - a[0]);
        for (const s of [-1, 1]) {
          ctx.moveTo(b[0], b[1]);
          ctx.lineTo(b[0] - 10 * Math.cos(ang + s * 0.4), b[1] - 10 * Math.sin(ang + s * 0.4));
        }
        ctx.stroke();
        label(item.label, b, item.color);
      }
    }
    const n = scene.frames.length;
    $("frame-label").textContent = n ? `${scene.slider} ${current + 1} of ${n}: ${scene.frames[current].label}` : "";
    draws += 1;
    body.dataset.frame = String(current);
    body.dataset.draws = String(draws);
    body.dataset.state = "drawn";
  }

  const slider = $("frame");
  slider.max = String(Math.max(0, scene.frames.length - 1));
  slider.disabled = scene.frames.length < 2;
  $("play").disabled = scene.frames.length < 2;
  const show = (i) => {
    current = Math.max(0, Math.min(scene.frames.length - 1, i));
    slider.value = String(current);
    if (scene.refit) {
      box = bounds(current);
      const { yaw, pitch } = cam;
      cam = Object.assign(home(), { yaw, pitch });
    }
    draw();
  };
  slider.addEventListener("input", () => show(Number(slider.value)));
  let timer = null;
  $("play").addEventListener("click", () => {
    if (timer) { clearInterval(timer); timer = null; $("play").textContent = "play"; return; }
    if (current === scene.frames.length - 1) show(0);
    $("play").textContent = "pause";
    const every = Math.max(16, Math.min(400, 8000 / scene.frames.length));
    timer = setInterval(() => {
      if (current >= scene.frames.length - 1) { clearInterval(timer); timer = null; $("play").textContent = "play"; return; }
      show(current + 1);
    }, every);
  });

  let drag = null;
  canvas.addEventListener("contextmenu", (e) => e.preventDefault());
  canvas.addEventListener("pointerdown", (e) => {
    drag = { x: e.clientX, y: e.clientY, pan: e.shiftKey || e.button === 2 };
    canvas.setPointerCapture(e.pointerId);
  });
  canvas.addEventListener("pointerup", () => (drag = null));
  canvas.addEventListener("pointermove", (e) => {
    if (!drag) return;
    const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    drag.x = e.clientX;
    drag.y = e.clientY;
    if (drag.pan) {
      const f = frame(), s = cam.dist * 2 * Math.tan(fov / 2) / height;
      cam.target = add(cam.target, add(mul(f.right, -dx * s), mul(f.up, dy * s)));
    } else {
      cam.yaw -= dx * 0.01;
      cam.pitch = Math.max(-1.55, Math.min(1.55, cam.pitch + dy * 0.01));
    }
    draw();
  });
  canvas.addEventListener("wheel", (e) => {
    e.preventDefault();
    cam.dist *= Math.exp(0.001 * e.deltaY);
    draw();
  }, { passive: false });
  window.addEventListener("keydown", (e) => {
    if (e.key === "ArrowRight") show(current + 1);
    else if (e.key === "ArrowLeft") show(current - 1);
    else if (e.key === "f") { box = bounds(scene.refit ? current : undefined); cam = home(); draw(); }
  });
  // A new window size, or the text around the view taking more or fewer lines.
  new ResizeObserver(() => { resize(); draw(); }).observe(canvas);
  resize();
  draw();
})();
