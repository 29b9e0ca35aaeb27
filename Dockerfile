# folio on Debian 12 without the Swift toolchain, from the .deb scripts/release.sh writes:
#   scripts/release.sh && docker build -t folio .
#   docker run --rm -v "$PWD:/work" folio validate --format github Info.plist
FROM debian:12-slim
COPY dist/folio_*_amd64.deb /tmp/
RUN apt-get update \
 && apt-get install -y --no-install-recommends /tmp/folio_*_amd64.deb \
 && rm -rf /var/lib/apt/lists/* /tmp/folio_*_amd64.deb \
 && folio --version
WORKDIR /work
ENTRYPOINT ["folio"]
