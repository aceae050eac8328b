// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// ENS name encodings: DNS wire format (ENSIP-10) and namehash (ENSIP-1), and the lowercase hex
/// label of an address under addr.reverse.
library NameCoder {
    error DNSDecodingFailed(bytes dns);
    error DNSEncodingFailed(string name);

    /// namehash of a DNS-encoded name: `\x03ada\x03eth\x00` → namehash("ada.eth").
    function namehash(bytes memory dns) internal pure returns (bytes32 node) {
        (node, ) = _namehash(dns, 0);
    }

    function _namehash(bytes memory dns, uint256 offset) private pure returns (bytes32 node, uint256 end) {
        if (offset >= dns.length) revert DNSDecodingFailed(dns);
        uint256 size = uint8(dns[offset]);
        if (size == 0) return (bytes32(0), offset + 1);
        if (offset + 1 + size >= dns.length) revert DNSDecodingFailed(dns);
        bytes32 label;
        assembly {
            label := keccak256(add(add(dns, 33), offset), size)
        }
        bytes32 parent;
        (parent, end) = _namehash(dns, offset + 1 + size);
        node = keccak256(abi.encodePacked(parent, label));
    }

    /// DNS wire format of a dotted name: "ada.eth" → `\x03ada\x03eth\x00`; "" is the root.
    function encode(string memory name) internal pure returns (bytes memory dns) {
        bytes memory text = bytes(name);
        if (text.length == 0) return hex"00";
        dns = new bytes(text.length + 2);
        uint256 start = 0;
        for (uint256 i = 0; i <= text.length; i++) {
            if (i == text.length || text[i] == ".") {
                uint256 size = i - start;
                if (size == 0 || size > 255) revert DNSEncodingFailed(name);
                dns[start] = bytes1(uint8(size));
                for (uint256 j = start; j < i; j++) dns[j + 1] = text[j];
                start = i + 1;
            }
        }
        dns[text.length + 1] = 0;
    }

    /// The label an address has under addr.reverse: its 40 lowercase hex digits.
    function hexLabel(address addr) internal pure returns (bytes memory label) {
        bytes16 digits = "0123456789abcdef";
        label = new bytes(40);
        uint160 value = uint160(addr);
        for (uint256 i = 40; i > 0; i--) {
            label[i - 1] = digits[value & 0xf];
            value >>= 4;
        }
    }
}
