# A local stand-in for the official swift:6.3-bookworm image, for machines without an image
# registry: scripts/docker-test.sh builds it from the host's toolchain and tags it with the official
# name, so docker/Dockerfile (which names the official image) is tested byte for byte as users get it.
# Built with the toolchain mounted read-only: podman build -v /opt/swift:/swift-src:ro
FROM docker.io/library/debian:bookworm-slim
# The toolchain's run-time needs, as the official image installs them.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      binutils gcc libc6-dev libstdc++-12-dev libgcc-12-dev git pkg-config ca-certificates tzdata \
      libcurl4 libxml2 libedit2 libncurses6 libsqlite3-0 libicu72 zlib1g-dev uuid-dev \
 && rm -rf /var/lib/apt/lists/*
# The official images' layout: the toolchain's usr/ merged into /usr.
RUN cp -a /swift-src/usr/. /usr/ && swift --version
CMD ["bash"]
