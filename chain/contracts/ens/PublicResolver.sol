// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ENSRegistry} from "./ENSRegistry.sol";

/// A public resolver with the profiles the app reads: addresses (EIP-137 `addr`, ENSIP-9
/// multichain `addr`), text records (ENSIP-5, e.g. `avatar`) and reverse names (EIP-181 `name`).
/// A node's owner in the registry (or an operator it approved) writes its records, and so does
/// the trusted reverse registrar for the reverse nodes it manages.
contract PublicResolver {
    uint256 private constant COIN_TYPE_ETH = 60;

    ENSRegistry public immutable ens;
    address public immutable trustedReverseRegistrar;

    mapping(bytes32 => mapping(uint256 => bytes)) private addresses;
    mapping(bytes32 => mapping(string => string)) private texts;
    mapping(bytes32 => string) private names;

    event AddrChanged(bytes32 indexed node, address a);
    event AddressChanged(bytes32 indexed node, uint256 coinType, bytes newAddress);
    event TextChanged(bytes32 indexed node, string indexed indexedKey, string key, string value);
    event NameChanged(bytes32 indexed node, string name);

    error Unauthorised(bytes32 node, address caller);
    error InvalidEthAddress(bytes value);

    constructor(ENSRegistry ens_, address trustedReverseRegistrar_) {
        ens = ens_;
        trustedReverseRegistrar = trustedReverseRegistrar_;
    }

    modifier authorised(bytes32 node) {
        if (!isAuthorised(node)) revert Unauthorised(node, msg.sender);
        _;
    }

    function isAuthorised(bytes32 node) public view returns (bool) {
        if (msg.sender == trustedReverseRegistrar) return true;
        address holder = ens.owner(node);
        return holder == msg.sender || ens.isApprovedForAll(holder, msg.sender);
    }

    function setAddr(bytes32 node, address a) external {
        setAddr(node, COIN_TYPE_ETH, abi.encodePacked(a));
    }

    function setAddr(bytes32 node, uint256 coinType, bytes memory a) public authorised(node) {
        if (coinType == COIN_TYPE_ETH && a.length != 0 && a.length != 20) revert InvalidEthAddress(a);
        emit AddressChanged(node, coinType, a);
        if (coinType == COIN_TYPE_ETH) emit AddrChanged(node, a.length == 0 ? address(0) : address(bytes20(a)));
        addresses[node][coinType] = a;
    }

    function addr(bytes32 node) external view returns (address payable) {
        bytes memory a = addresses[node][COIN_TYPE_ETH];
        return a.length == 0 ? payable(address(0)) : payable(address(bytes20(a)));
    }

    function addr(bytes32 node, uint256 coinType) external view returns (bytes memory) {
        return addresses[node][coinType];
    }

    function setText(bytes32 node, string calldata key, string calldata value) external authorised(node) {
        texts[node][key] = value;
        emit TextChanged(node, key, key, value);
    }

    function text(bytes32 node, string calldata key) external view returns (string memory) {
        return texts[node][key];
    }

    function setName(bytes32 node, string calldata newName) external authorised(node) {
        names[node] = newName;
        emit NameChanged(node, newName);
    }

    function name(bytes32 node) external view returns (string memory) {
        return names[node];
    }

    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        return
            interfaceId == 0x01ffc9a7 || // ERC-165
            interfaceId == 0x3b3b57de || // addr(bytes32)
            interfaceId == 0xf1cb7e06 || // addr(bytes32,uint256)
            interfaceId == 0x59d1d43c || // text(bytes32,string)
            interfaceId == 0x691f3431; // name(bytes32)
    }
}
