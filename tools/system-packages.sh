#!/usr/bin/env bash
# Debian packages the book uses beyond Python/Rust/Node:
#   mesa-vulkan-drivers  lavapipe, the CPU Vulkan driver the gpu-oob pitfall runs wgpu on;
#   chromium, fonts-noto-cjk  the browser tests (playwright drives /usr/bin/chromium).
# A package that cannot be installed is a warning, not an error: the experiments that need
# it keep their committed outputs (requires: in the manifest) and the tests that need it say so.
set -u
want=(mesa-vulkan-drivers chromium fonts-noto-cjk)
missing=()
for p in "${want[@]}"; do
  dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null && sudo="sudo -n"
echo "安装系统包：${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
if ! $sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null 2>&1; then
  $sudo apt-get update -q >/dev/null 2>&1
  $sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null 2>&1 \
    || echo "警告：装不上 ${missing[*]}（没有 root 或 apt 源）；需要它们的实验沿用缓存；浏览器测试会失败并说明（设 BOOK_NO_BROWSER=1 才跳过）"
fi
exit 0
