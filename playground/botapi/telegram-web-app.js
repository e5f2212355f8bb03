// A stand-in for Telegram's telegram-web-app.js (which telegram.org serves): it reads the
// launch fragment a Telegram client gives a Mini App (#tgWebAppData=…&tgWebAppThemeParams=…)
// and offers the part of Telegram.WebApp that tourbot's pages use.
(function () {
  "use strict";
  const launch = new URLSearchParams(location.hash.slice(1));
  const initData = launch.get("tgWebAppData") || "";
  const unsafe = {};
  for (const [key, value] of new URLSearchParams(initData)) {
    unsafe[key] = ["user", "receiver", "chat"].includes(key) ? JSON.parse(value) : value;
  }
  if (unsafe.auth_date) unsafe.auth_date = Number(unsafe.auth_date);
  const themeParams = JSON.parse(launch.get("tgWebAppThemeParams") || "{}");
  const handlers = {};

  function luminance(hex) {
    const n = parseInt((hex || "#ffffff").slice(1), 16);
    return 0.2126 * (n >> 16) + 0.7152 * ((n >> 8) & 255) + 0.0722 * (n & 255);
  }
  const root = document.documentElement.style;
  for (const [key, value] of Object.entries(themeParams)) {
    root.setProperty("--tg-theme-" + key.replace(/_/g, "-"), value);
  }
  const nothing = () => {};
  const button = {show: nothing, hide: nothing, onClick: nothing, offClick: nothing, setText: nothing};
  window.Telegram = {
    WebApp: {
      initData,
      initDataUnsafe: unsafe,
      version: launch.get("tgWebAppVersion") || "8.0",
      platform: launch.get("tgWebAppPlatform") || "unknown",
      themeParams,
      colorScheme: luminance(themeParams.bg_color) < 128 ? "dark" : "light",
      isExpanded: true,
      ready: nothing,
      expand: nothing,
      close() { window.__telegramClosed = true; },
      onEvent(name, fn) { (handlers[name] = handlers[name] || []).push(fn); },
      offEvent(name, fn) { handlers[name] = (handlers[name] || []).filter(f => f !== fn); },
      openTelegramLink(url) { location.href = url; },
      openLink(url) { window.open(url, "_blank"); },
      HapticFeedback: {impactOccurred: nothing, notificationOccurred: nothing, selectionChanged: nothing},
      BackButton: button,
      MainButton: button,
    },
  };
})();
