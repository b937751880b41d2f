//! A zip archive of text files, stored without compression (PKWARE APPNOTE 6.3.9, §4.3):
//! one download for every result file instead of a dozen. Plain Rust, tested natively.

/// CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320) as zip requires.
pub fn crc32(data: &[u8]) -> u32 {
    let mut table = [0u32; 256];
    for (i, e) in table.iter_mut().enumerate() {
        let mut c = i as u32;
        for _ in 0..8 {
            c = if c & 1 != 0 { 0xEDB8_8320 ^ (c >> 1) } else { c >> 1 };
        }
        *e = c;
    }
    !data.iter().fold(!0u32, |c, &b| table[((c ^ u32::from(b)) & 0xFF) as usize] ^ (c >> 8))
}

fn u16le(v: &mut Vec<u8>, x: u16) {
    v.extend_from_slice(&x.to_le_bytes());
}

fn u32le(v: &mut Vec<u8>, x: u32) {
    v.extend_from_slice(&x.to_le_bytes());
}

/// The archive of `files` (name, content); names are stored as given (UTF-8, flag bit 11).
pub fn zip(files: &[(String, String)]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    for (name, body) in files {
        let (name, body) = (name.as_bytes(), body.as_bytes());
        let crc = crc32(body);
        let offset = out.len() as u32;
        // Local file header (§4.3.7): version 2.0, UTF-8 names, stored, no time.
        u32le(&mut out, 0x0403_4b50);
        u16le(&mut out, 20);
        u16le(&mut out, 1 << 11);
        u16le(&mut out, 0);
        u16le(&mut out, 0);
        u16le(&mut out, 0x21);
        u32le(&mut out, crc);
        u32le(&mut out, body.len() as u32);
        u32le(&mut out, body.len() as u32);
        u16le(&mut out, name.len() as u16);
        u16le(&mut out, 0);
        out.extend_from_slice(name);
        out.extend_from_slice(body);
        // Central directory header (§4.3.12).
        u32le(&mut central, 0x0201_4b50);
        u16le(&mut central, 20);
        u16le(&mut central, 20);
        u16le(&mut central, 1 << 11);
        u16le(&mut central, 0);
        u16le(&mut central, 0);
        u16le(&mut central, 0x21);
        u32le(&mut central, crc);
        u32le(&mut central, body.len() as u32);
        u32le(&mut central, body.len() as u32);
        u16le(&mut central, name.len() as u16);
        central.extend_from_slice(&[0; 12]);
        u32le(&mut central, offset);
        central.extend_from_slice(name);
    }
    let cd_offset = out.len() as u32;
    let cd_len = central.len() as u32;
    out.extend_from_slice(&central);
    // End of central directory (§4.3.16).
    u32le(&mut out, 0x0605_4b50);
    out.extend_from_slice(&[0; 4]);
    u16le(&mut out, files.len() as u16);
    u16le(&mut out, files.len() as u16);
    u32le(&mut out, cd_len);
    u32le(&mut out, cd_offset);
    u16le(&mut out, 0);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc32_matches_the_standard_check_value() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b""), 0);
    }

    #[test]
    fn an_archive_lists_every_file_and_holds_its_bytes() {
        let files =
            vec![("a.csv".to_string(), "x,y\n1,2\n".to_string()), ("b.json".to_string(), "{}".to_string())];
        let z = zip(&files);
        assert_eq!(&z[..4], b"PK\x03\x04");
        let end = &z[z.len() - 22..];
        assert_eq!(&end[..4], b"PK\x05\x06");
        assert_eq!(u16::from_le_bytes([end[10], end[11]]), 2);
        let w = z.windows(8).position(|w| w == b"x,y\n1,2\n").unwrap();
        assert!(w > 30);
    }
}
